// The built gateway (`dist/ddedge.mjs gateway`) in front of an in-process sandbox, with a keys
// file of the keys a test names, for tests that talk to it with raw DNS messages. `zone()`
// reads the provider's zone (the sandbox's model), not the gateway's view.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keygenText } from '../../src/gateway/keygen.js';
import type { TsigAlgorithm, TsigKey } from '../../src/dns/wire/tsig.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { baseEnv, startDist, tempDir, waitForOutput } from './cli.js';

export interface GatewayKeySpec {
  name: string;
  algorithm?: TsigAlgorithm;
  /** Lines after the key, e.g. `grant "NAME" zonesub;` or `transfer "NAME";`. */
  rules: string[];
}

export interface RunningGateway {
  sandbox: Sandbox;
  port: number;
  keys: Map<string, TsigKey>;
  /** `name TYPE value` lines of the provider's example.com, sorted. */
  zone(under?: string): string[];
  stderr(): string;
  stop(): Promise<number | null>;
}

export async function startGatewayFixture(specs: GatewayKeySpec[], sandboxOptions: Parameters<typeof startSandbox>[0] = {}): Promise<RunningGateway> {
  const sandbox = await startSandbox(sandboxOptions);
  const dir = tempDir('ddedge-gw-');
  const keys = new Map<string, TsigKey>();
  let text = '';
  for (const spec of specs) {
    const algorithm = spec.algorithm ?? 'hmac-sha256';
    const block = keygenText(spec.name, algorithm);
    keys.set(spec.name, { name: spec.name, algorithm, secret: Buffer.from(/secret "([^"]+)"/.exec(block)![1]!, 'base64') });
    text += block + spec.rules.map((r) => `${r}\n`).join('');
  }
  const keysFile = join(dir, 'gateway.keys');
  writeFileSync(keysFile, text, { mode: 0o600 });
  const child = startDist(
    ['gateway', '--zone', 'example.com', '--keys', keysFile, '--dns-listen', '127.0.0.1:0', '--primary-name', 'gateway.example.net', '--state-dir', join(dir, 'state')],
    baseEnv({ DDEDGE_API_URL: sandbox.url, DDEDGE_API_USER: 'demo-user', DDEDGE_API_PASSWORD: 'demo-api-password' }),
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += String(d)));
  const line = await waitForOutput(child, 'stderr', (t) => /answering DNS .* on 127\.0\.0\.1:\d+/.test(t), 15_000);
  const port = Number(/on 127\.0\.0\.1:(\d+)/.exec(line)![1]);
  return {
    sandbox,
    port,
    keys,
    zone: (under = '') =>
      sandbox.model.services
        .find((s) => s.name === 'example.com')!
        .dns.filter((e) => e.name.endsWith(under))
        .map((e) => `${e.name} ${e.type} ${e.value}`)
        .sort(),
    stderr: () => err,
    stop: async () => {
      child.kill('SIGTERM');
      const { code } = await child.result;
      await sandbox.close();
      return code;
    },
  };
}
