// The built gateway (`dist/ddedge.mjs gateway`) with its dyndns2 door open, in front of an
// in-process sandbox: keys made with keygen (their secrets as the keys file writes them, which
// is the door's password), the door's URL, the --listen endpoint's /metrics, the provider's
// zone and the journal. Over TLS with the test CA's certificate when asked.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { tempDir } from './cli.js';
import { zoneLines } from './gateway-fixture.js';
import { startGatewayProcess, writeKeysFile } from './gateway-process.js';
import { parsePrometheusText } from './prometheus-text.js';
import { tlsFiles } from './servers.js';

export interface DoorKey {
  name: string;
  /** Lines after the key, e.g. `grant "router" name home.example.com A AAAA;`. */
  rules: string[];
}

export interface RunningDoor {
  sandbox: Sandbox;
  /** http(s)://127.0.0.1:PORT (no path). */
  url: string;
  /** The --listen endpoint: http://127.0.0.1:PORT. */
  endpoint: string;
  /** Each key's secret, as written in the keys file. */
  secrets: Map<string, string>;
  dir: string;
  stateDir: string;
  /** `name TYPE value` lines of the provider's example.com at or below `under`, sorted. */
  zone(under?: string): string[];
  /** Provider calls the gateway made so far (its /metrics), of one operation (`service/dnslist`) or all. */
  providerCalls(operation?: string): Promise<number>;
  /** The door's answers by code (its /metrics). */
  answers(): Promise<Record<string, number>>;
  journal(): Record<string, unknown>[];
  stderr(): string;
  /** Waits until the gateway's stderr shows `pattern` (10 s at most, then fails with what it shows): a log line may reach the test's pipe after the answer reaches its socket. */
  logged(pattern: RegExp): Promise<void>;
  stop(): Promise<number | null>;
}

export async function startDoor(
  keys: DoorKey[],
  options: { tls?: boolean; args?: string[]; env?: Record<string, string> } = {},
): Promise<RunningDoor> {
  const sandbox = await startSandbox({});
  const dir = tempDir('ddedge-dyndns2-');
  const { file: keysFile, secrets } = writeKeysFile(keys, join(dir, 'gateway.keys'));
  const stateDir = join(dir, 'state');
  const tls = options.tls ? ['--dyndns2-cert', tlsFiles().cert, '--dyndns2-key', tlsFiles().key] : [];
  const gateway = await startGatewayProcess({
    apiUrl: sandbox.url,
    zone: 'example.com',
    keysFile,
    stateDir,
    args: ['--listen', '127.0.0.1:0', '--dyndns2-listen', '127.0.0.1:0', ...tls, ...(options.args ?? [])],
    ...(options.env ? { env: options.env } : {}),
  });
  const url = gateway.dyndns2!;
  const endpoint = gateway.endpoint!;
  const err = gateway.stderr;
  const metrics = async () => parsePrometheusText(await (await fetch(`${endpoint}/metrics`)).text());
  return {
    sandbox,
    url,
    endpoint,
    secrets,
    dir,
    stateDir,
    zone: (under = '') => zoneLines(sandbox, under),
    providerCalls: async (operation?: string) =>
      (await metrics())
        .get('ddedge_gateway_provider_calls_total')
        ?.samples.filter((s) => operation === undefined || s.labels.operation === operation)
        .reduce((n, s) => n + s.value, 0) ?? 0,
    answers: async () =>
      Object.fromEntries(
        (await metrics()).get('ddedge_gateway_dyndns2_answers_total')?.samples.map((s) => [s.labels.code!, s.value]) ??
          [],
      ),
    journal: () => {
      try {
        return readFileSync(join(stateDir, 'gateway', 'journal.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      } catch {
        return [];
      }
    },
    stderr: err,
    logged: async (pattern) => {
      for (let i = 0; i < 100 && !pattern.test(err()); i++) await new Promise((r) => setTimeout(r, 100));
      if (!pattern.test(err())) throw new Error(`the gateway's log never showed ${pattern}; it shows:\n${err()}`);
    },
    stop: async () => {
      const code = await gateway.stop();
      await sandbox.close();
      return code;
    },
  };
}
