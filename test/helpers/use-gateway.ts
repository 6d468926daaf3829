// The built gateway as a vitest fixture: started once for the file (or before each test) with a
// keys file of the keys a test names, in front of the sandbox (or a proxy) that `setup` names,
// and stopped after. `setup` runs when the gateway starts, so it may read a sandbox that
// useSandbox() started before it; it returns undefined when the file's tests are skipped (a
// third-party program missing), and then nothing starts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { TsigKey } from '../../src/dns/wire/tsig.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { HANG_BOUND_MS, tempDir } from './cli.js';
import { startGatewayProcess, writeKeysFile, type GatewayProcess, type GatewayProcessOptions, type KeySpec } from './gateway-process.js';
import { parsePrometheusText } from './prometheus-text.js';
import { tlsFiles } from './servers.js';

export { startGatewayProcess, writeKeysFile, type GatewayProcess, type GatewayProcessOptions, type KeySpec } from './gateway-process.js';

export interface GatewaySetup extends Omit<GatewayProcessOptions, 'zone' | 'keysFile' | 'stateDir'> {
  keys: KeySpec[];
  /** The zone it serves; example.com unless said. */
  zone?: string;
  /** A state directory the test prepared (filled before the start); a fresh one unless said. */
  stateDir?: string;
  /** Opens the dyndns2 door and the --listen endpoint (its /metrics); over TLS with the test CA's certificate when asked. */
  door?: { tls?: boolean };
}

export interface GatewayHandle extends GatewayProcess {
  /** The --listen endpoint (http://127.0.0.1:PORT); an error when it was not asked for. */
  readonly endpoint: string;
  /** The dyndns2 door (http(s)://127.0.0.1:PORT, no path); an error when it was not opened. */
  readonly dyndns2: string;
  /** The folder of its keys file (gateway.keys) and, unless the test gave one, state directory (state/). */
  readonly dir: string;
  readonly stateDir: string;
  readonly keysFile: string;
  /** The keys, to sign with. */
  readonly keys: Map<string, TsigKey>;
  /** A key's secret as the keys file writes it (Base64). */
  secret(name: string): string;
  /** nsupdate's `-y` argument for a key: `ALGORITHM:NAME:SECRET`. */
  nsupdateKey(name: string): string;
  /** The journal's lines so far (none when it has none). */
  journal(): Record<string, unknown>[];
  /** Provider calls the gateway made so far (its /metrics), of one operation (`service/dnslist`) or all. */
  providerCalls(operation?: string): Promise<number>;
  /** The dyndns2 door's answers by code (its /metrics). */
  doorAnswers(): Promise<Record<string, number>>;
}

export function useGateway(setup: () => GatewaySetup | undefined | Promise<GatewaySetup | undefined>, options: { per?: 'test' | 'file' } = {}): GatewayHandle {
  let current: (GatewayProcess & { dir: string; stateDir: string; keysFile: string; keys: Map<string, TsigKey>; secrets: Map<string, string> }) | undefined;
  const live = () => {
    if (!current) throw new Error('useGateway: the gateway runs only inside the tests of the file that asked for it');
    return current;
  };
  const [before, after] = options.per === 'test' ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    const wanted = await setup();
    if (!wanted) return;
    const { keys: specs, zone = 'example.com', stateDir: given, door, args = [], ...rest } = wanted;
    const dir = tempDir('ddedge-gw-');
    const stateDir = given ?? join(dir, 'state');
    const keysFile = writeKeysFile(specs, join(dir, 'gateway.keys'));
    const gateway = await startGatewayProcess({ ...rest, zone, keysFile: keysFile.file, stateDir, args: door ? [...doorArgs(door), ...args] : args });
    current = { ...gateway, dir, stateDir, keysFile: keysFile.file, keys: keysFile.keys, secrets: keysFile.secrets };
  });
  after(async () => {
    const stopping = current;
    current = undefined;
    await stopping?.stop();
  });
  const metrics = async () => parsePrometheusText(await (await fetch(`${live().endpoint}/metrics`)).text());
  const secret = (name: string) => {
    const value = live().secrets.get(name);
    if (value === undefined) throw new Error(`useGateway: no key ${name} in the keys file`);
    return value;
  };
  return {
    get port() { return live().port; },
    get endpoint() { return live().endpoint ?? fail('no --listen endpoint was asked for'); },
    get dyndns2() { return live().dyndns2 ?? fail('the dyndns2 door was not opened (door: {})'); },
    get child() { return live().child; },
    get dir() { return live().dir; },
    get stateDir() { return live().stateDir; },
    get keysFile() { return live().keysFile; },
    get keys() { return live().keys; },
    stderr: () => live().stderr(),
    logged: (pattern, boundMs) => live().logged(pattern, boundMs),
    /** Stops it now (the fixture would after the file), and the exit code; null when none was started. */
    stop: () => current?.stop() ?? Promise.resolve(null),
    secret,
    nsupdateKey: (name) => `${live().keys.get(name)?.algorithm ?? 'hmac-sha256'}:${name}:${secret(name)}`,
    journal: () => journalLines(live().stateDir),
    providerCalls: async (operation) =>
      (await metrics())
        .get('ddedge_gateway_provider_calls_total')
        ?.samples.filter((s) => operation === undefined || s.labels.operation === operation)
        .reduce((n, s) => n + s.value, 0) ?? 0,
    doorAnswers: async () =>
      Object.fromEntries((await metrics()).get('ddedge_gateway_dyndns2_answers_total')?.samples.map((s) => [s.labels.code!, s.value]) ?? []),
  };
}

function fail(why: string): never {
  throw new Error(`useGateway: ${why}`);
}

function doorArgs(door: { tls?: boolean }): string[] {
  const tls = door.tls ? ['--dyndns2-cert', tlsFiles().cert, '--dyndns2-key', tlsFiles().key] : [];
  return ['--listen', '127.0.0.1:0', '--dyndns2-listen', '127.0.0.1:0', ...tls];
}

/** The journal's lines in a state directory (none when it has none). */
export function journalLines(stateDir: string): Record<string, unknown>[] {
  try {
    const text = readFileSync(join(stateDir, 'gateway', 'journal.jsonl'), 'utf8');
    return text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  } catch {
    return [];
  }
}

/** `name TYPE value` lines of the provider's example.com at or below `under`, sorted: what the provider holds, not the gateway's view. */
export const zoneLines = (sandbox: Sandbox, under = ''): string[] =>
  sandbox.model.services
    .find((s) => s.name === 'example.com')!
    .dns.filter((e) => e.name.endsWith(under))
    .map((e) => `${e.name} ${e.type} ${e.value}`)
    .sort();

/**
 * Resolves once `check` holds (it may read a file, a sandbox's calls, a page); fails with `what`
 * after the bound, which only a broken build reaches. For events a test cannot be told of.
 */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, boundMs = HANG_BOUND_MS): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited ${boundMs} ms in vain for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
