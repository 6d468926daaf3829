// The built gateway (`dist/ddedge.mjs gateway`) for tests, the one place that starts it: useGateway()
// as a vitest fixture (started once for the file, or before each test) with a keys file of the
// keys a test names, in front of the sandbox (or a proxy) that `setup` names, and stopped after.
// `setup` runs when the gateway starts, so it may read a sandbox that useSandbox() started
// before it; it returns undefined when the file's tests are skipped (a third-party program
// missing), and then nothing starts. Below it, for tests that run two gateways on one state
// directory, stop and start one, or watch a start fail, startGatewayProcess() and spawnGateway()
// start it with the same arguments and environment, and writeKeysFile() writes a keys file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { TsigAlgorithm, TsigKey } from '../../src/dns/wire/tsig.js';
import { keygenText } from '../../src/gateway/keys/keygen.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { baseEnv, HANG_BOUND_MS, startDist, tempDir, waitForOutput } from './cli.js';
import { parsePrometheusText } from './prometheus-text.js';
import { tlsFiles } from './servers.js';
import { waitUntil } from './wait.js';

export interface GatewaySetup extends Omit<GatewayProcessOptions, 'zone' | 'keysFile' | 'stateDir'> {
  keys: KeySpec[];
  /** The zone it serves; example.com unless said. */
  zone?: string;
  /** A state directory the test prepared (filled before the start); a fresh one unless said. */
  stateDir?: string;
  /**
   * Opens the HTTP door (dyndns2, httpreq, acme-dns: --http-listen) and the --listen endpoint (its /metrics); over TLS
   * with the test CA's certificate when asked.
   */
  door?: { tls?: boolean };
}

export interface GatewayHandle extends GatewayProcess {
  /** The --listen endpoint (http(s)://127.0.0.1:PORT); an error when it was not asked for. */
  readonly endpoint: string;
  /** The HTTP door (http(s)://127.0.0.1:PORT, no path: dyndns2, httpreq, acme-dns); an error when it was not opened. */
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

export function useGateway(
  setup: () => GatewaySetup | undefined | Promise<GatewaySetup | undefined>,
  options: { per?: 'test' | 'file' } = {},
): GatewayHandle {
  let current:
    | (GatewayProcess & {
        dir: string;
        stateDir: string;
        keysFile: string;
        keys: Map<string, TsigKey>;
        secrets: Map<string, string>;
      })
    | undefined;
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
    const gateway = await startGatewayProcess({
      ...rest,
      zone,
      keysFile: keysFile.file,
      stateDir,
      args: door ? [...doorArgs(door), ...args] : args,
    });
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
    get port() {
      return live().port;
    },
    get endpoint() {
      return live().endpoint ?? fail('no --listen endpoint was asked for');
    },
    get dyndns2() {
      return live().dyndns2 ?? fail('the dyndns2 door was not opened (door: {})');
    },
    get child() {
      return live().child;
    },
    get dir() {
      return live().dir;
    },
    get stateDir() {
      return live().stateDir;
    },
    get keysFile() {
      return live().keysFile;
    },
    get keys() {
      return live().keys;
    },
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
      Object.fromEntries(
        (await metrics()).get('ddedge_gateway_dyndns2_answers_total')?.samples.map((s) => [s.labels.code!, s.value]) ??
          [],
      ),
  };
}

function fail(why: string): never {
  throw new Error(`useGateway: ${why}`);
}

function doorArgs(door: { tls?: boolean }): string[] {
  const tls = door.tls ? ['--http-cert', tlsFiles().cert, '--http-key', tlsFiles().key] : [];
  return ['--listen', '127.0.0.1:0', '--http-listen', '127.0.0.1:0', ...tls];
}

/** The journal's lines in a state directory (none when it has none). */
function journalLines(stateDir: string): Record<string, unknown>[] {
  try {
    const text = readFileSync(join(stateDir, 'gateway', 'journal.jsonl'), 'utf8');
    return text
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
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

/** The one bounded wait (wait.ts), by the name the gateway's tests use. */
export function waitFor(check: () => boolean | Promise<boolean>, what: string, boundMs = HANG_BOUND_MS): Promise<void> {
  return waitUntil(check, what, { boundMs, everyMs: 25 });
}

export interface GatewayProcess {
  /** Its DNS port (UDP and TCP). */
  port: number;
  /** The --listen endpoint (http://127.0.0.1:PORT, no path), when one was asked for. */
  endpoint?: string;
  /** The dyndns2 door (http(s)://127.0.0.1:PORT, no path), when one was asked for. */
  dyndns2?: string;
  /** The process, for its exit (`result`) or a signal of the test's own. */
  child: ReturnType<typeof startDist>;
  stderr(): string;
  /**
   * Resolves once its stderr shows `pattern` (a log line may reach the test's pipe after the
   * answer reaches its socket); fails with what it shows if it exits first, or after the bound.
   */
  logged(pattern: RegExp, boundMs?: number): Promise<void>;
  /** SIGTERM, then the exit code (the same code however often it is called). */
  stop(): Promise<number | null>;
}

export interface KeySpec {
  name: string;
  algorithm?: TsigAlgorithm;
  /** Lines after the key, e.g. `grant "NAME" zonesub;` or `transfer "NAME";`. */
  rules: string[];
}

export interface KeysFile {
  file: string;
  /** The keys, to sign with. */
  keys: Map<string, TsigKey>;
  /** Each key's secret as the keys file writes it (Base64): nsupdate's `-y ALGORITHM:NAME:SECRET`, the dyndns2 door's password. */
  secrets: Map<string, string>;
}

/** A keys file holding one key per name with the lines given after it. */
export function writeKeysFile(specs: KeySpec[], file = join(tempDir('ddedge-keys-'), 'gateway.keys')): KeysFile {
  const keys = new Map<string, TsigKey>();
  const secrets = new Map<string, string>();
  let text = '';
  for (const spec of specs) {
    const algorithm = spec.algorithm ?? 'hmac-sha256';
    const block = keygenText(spec.name, algorithm);
    const secret = /secret "([^"]+)"/.exec(block)![1]!;
    secrets.set(spec.name, secret);
    keys.set(spec.name, { name: spec.name, algorithm, secret: Buffer.from(secret, 'base64') });
    text += block + spec.rules.map((r) => `${r}\n`).join('');
  }
  writeFileSync(file, text, { mode: 0o600 });
  return { file, keys, secrets };
}

export interface GatewayProcessOptions {
  apiUrl: string;
  zone: string;
  keysFile: string;
  stateDir: string;
  args?: string[];
  port?: number;
  /** More of the gateway's environment (besides the sandbox's API credentials). */
  env?: Record<string, string>;
  /** --primary-name (the SOA's MNAME); null: none given, the gateway's default. */
  primaryName?: string | null;
  /** How long the start may take before it is a hang. */
  startBoundMs?: number;
}

/**
 * The built gateway with the arguments and environment every start here has, not waited for: for
 * tests of a start that fails or hangs (its `result` is the exit). `stateDir: null` gives none.
 */
export function spawnGateway(
  options: Omit<GatewayProcessOptions, 'stateDir'> & { stateDir: string | null },
): ReturnType<typeof startDist> {
  const primaryName = options.primaryName === undefined ? 'gateway.example.net' : options.primaryName;
  const where = ['--zone', options.zone, '--keys', options.keysFile, '--dns-listen', `127.0.0.1:${options.port ?? 0}`];
  return startDist(
    [
      'gateway',
      ...where,
      ...(primaryName === null ? [] : ['--primary-name', primaryName]),
      ...(options.stateDir === null ? [] : ['--state-dir', options.stateDir]),
      ...(options.args ?? []),
    ],
    baseEnv({
      DDEDGE_API_URL: options.apiUrl,
      DDEDGE_API_USER: 'demo-user',
      DDEDGE_API_PASSWORD: 'demo-api-password',
      ...options.env,
    }),
  );
}

/** The built gateway, once it answers (and its --listen endpoint and dyndns2 door, when asked for, are open). */
export async function startGatewayProcess(options: GatewayProcessOptions): Promise<GatewayProcess> {
  const args = options.args ?? [];
  const child = spawnGateway(options);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += String(d)));
  const started = (t: string) =>
    /answering DNS .* on 127\.0\.0\.1:\d+/.test(t) &&
    (!args.includes('--listen') || ENDPOINT.test(t)) &&
    (!args.includes('--dyndns2-listen') || DYNDNS2.test(t)) &&
    (!args.includes('--http-listen') || DYNDNS2.test(t));
  const text = await waitForOutput(child, 'stderr', started, options.startBoundMs);
  let exit: Promise<number | null> | undefined;
  return {
    port: Number(/answering DNS .* on 127\.0\.0\.1:(\d+)/.exec(text)![1]),
    ...(ENDPOINT.test(text) ? { endpoint: ENDPOINT.exec(text)![1]! } : {}),
    ...(DYNDNS2.test(text) ? { dyndns2: DYNDNS2.exec(text)![1]! } : {}),
    child,
    stderr: () => err,
    logged: async (pattern, boundMs = HANG_BOUND_MS) => {
      if (pattern.test(err)) return;
      try {
        await waitForOutput(child, 'stderr', () => pattern.test(err), boundMs);
      } catch {
        throw new Error(`the gateway's log never showed ${pattern}; it shows:\n${err}`);
      }
    },
    stop: () => {
      if (!exit) {
        child.kill('SIGTERM');
        exit = child.result.then((r) => r.code);
      }
      return exit;
    },
  };
}

const ENDPOINT = /serving \/healthz, \/metrics and \/status at (https?:\/\/127\.0\.0\.1:\d+)\//;
const DYNDNS2 = /answering dyndns2 updates at (https?:\/\/127\.0\.0\.1:\d+)\/nic\/update/;
