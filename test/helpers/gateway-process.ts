// One built gateway (`dist/ddedge.mjs gateway`) on a zone, a keys file and a state directory a
// test chooses, in front of a sandbox the test started: for tests that run two gateways on one
// state directory, or stop and start one on the same state.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TsigKey } from '../../src/dns/wire/tsig.js';
import { keygenText } from '../../src/gateway/keygen.js';
import { baseEnv, startDist, tempDir, waitForOutput } from './cli.js';

export interface GatewayProcess {
  port: number;
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** A keys file holding one key per name with the lines given after it; the keys, to sign with. */
export function writeKeysFile(specs: { name: string; rules: string[] }[]): { file: string; keys: Map<string, TsigKey> } {
  const keys = new Map<string, TsigKey>();
  let text = '';
  for (const spec of specs) {
    const block = keygenText(spec.name, 'hmac-sha256');
    keys.set(spec.name, { name: spec.name, algorithm: 'hmac-sha256', secret: Buffer.from(/secret "([^"]+)"/.exec(block)![1]!, 'base64') });
    text += block + spec.rules.map((r) => `${r}\n`).join('');
  }
  const file = join(tempDir('ddedge-keys-'), 'gateway.keys');
  writeFileSync(file, text, { mode: 0o600 });
  return { file, keys };
}

export async function startGatewayProcess(options: { apiUrl: string; zone: string; keysFile: string; stateDir: string; args?: string[]; port?: number }): Promise<GatewayProcess> {
  const child = startDist(
    ['gateway', '--zone', options.zone, '--keys', options.keysFile, '--dns-listen', `127.0.0.1:${options.port ?? 0}`, '--primary-name', 'gateway.example.net', '--state-dir', options.stateDir, ...(options.args ?? [])],
    baseEnv({ DDEDGE_API_URL: options.apiUrl, DDEDGE_API_USER: 'demo-user', DDEDGE_API_PASSWORD: 'demo-api-password' }),
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += String(d)));
  const line = await waitForOutput(child, 'stderr', (t) => /answering DNS .* on 127\.0\.0\.1:\d+/.test(t), 15_000);
  return {
    port: Number(/on 127\.0\.0\.1:(\d+)/.exec(line)![1]),
    stderr: () => err,
    stop: async () => {
      child.kill('SIGTERM');
      return (await child.result).code;
    },
  };
}
