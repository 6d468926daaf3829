// One built gateway (`dist/ddedge.mjs gateway`) on a zone, a keys file and a state directory a
// test chooses, in front of a sandbox the test started: for tests that run two gateways on one
// state directory, or stop and start one on the same state. The one place that starts the
// built gateway for tests and reads its ports from what it says at start.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TsigAlgorithm, TsigKey } from '../../src/dns/wire/tsig.js';
import { keygenText } from '../../src/gateway/keys/keygen.js';
import { baseEnv, HANG_BOUND_MS, startDist, tempDir, waitForOutput } from './cli.js';

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

export async function startGatewayProcess(options: GatewayProcessOptions): Promise<GatewayProcess> {
  const primaryName = options.primaryName === undefined ? 'gateway.example.net' : options.primaryName;
  const args = options.args ?? [];
  const child = startDist(
    [
      'gateway',
      '--zone',
      options.zone,
      '--keys',
      options.keysFile,
      '--dns-listen',
      `127.0.0.1:${options.port ?? 0}`,
      ...(primaryName === null ? [] : ['--primary-name', primaryName]),
      '--state-dir',
      options.stateDir,
      ...args,
    ],
    baseEnv({
      DDEDGE_API_URL: options.apiUrl,
      DDEDGE_API_USER: 'demo-user',
      DDEDGE_API_PASSWORD: 'demo-api-password',
      ...options.env,
    }),
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += String(d)));
  const started = (t: string) =>
    /answering DNS .* on 127\.0\.0\.1:\d+/.test(t) &&
    (!args.includes('--listen') || ENDPOINT.test(t)) &&
    (!args.includes('--dyndns2-listen') || DYNDNS2.test(t));
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

const ENDPOINT = /serving \/healthz, \/metrics and \/status at (http:\/\/127\.0\.0\.1:\d+)\//;
const DYNDNS2 = /answering dyndns2 updates at (https?:\/\/127\.0\.0\.1:\d+)\/nic\/update/;
