// The built gateway (`dist/ddedge.mjs gateway`) in front of an in-process sandbox, with a keys
// file of the keys a test names, for tests that talk to it with raw DNS messages. `zone()`
// reads the provider's zone (the sandbox's model), not the gateway's view.
import { join } from 'node:path';
import type { TsigKey } from '../../src/dns/wire/tsig.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { tempDir } from './cli.js';
import { startGatewayProcess, writeKeysFile, type KeySpec } from './gateway-process.js';

export type GatewayKeySpec = KeySpec;

export interface RunningGateway {
  sandbox: Sandbox;
  port: number;
  keys: Map<string, TsigKey>;
  /** `name TYPE value` lines of the provider's example.com, sorted. */
  zone(under?: string): string[];
  stderr(): string;
  stop(): Promise<number | null>;
}

export async function startGatewayFixture(
  specs: GatewayKeySpec[],
  sandboxOptions: Parameters<typeof startSandbox>[0] = {},
): Promise<RunningGateway> {
  const sandbox = await startSandbox(sandboxOptions);
  const dir = tempDir('ddedge-gw-');
  const { file, keys } = writeKeysFile(specs, join(dir, 'gateway.keys'));
  const gateway = await startGatewayProcess({
    apiUrl: sandbox.url,
    zone: 'example.com',
    keysFile: file,
    stateDir: join(dir, 'state'),
    startBoundMs: 15_000,
  });
  return {
    sandbox,
    port: gateway.port,
    keys,
    zone: (under = '') => zoneLines(sandbox, under),
    stderr: gateway.stderr,
    stop: async () => {
      const code = await gateway.stop();
      await sandbox.close();
      return code;
    },
  };
}

/** `name TYPE value` lines of the provider's example.com at or below `under`, sorted: what the provider holds, not the gateway's view. */
export const zoneLines = (sandbox: Sandbox, under = ''): string[] =>
  sandbox.model.services
    .find((s) => s.name === 'example.com')!
    .dns.filter((e) => e.name.endsWith(under))
    .map((e) => `${e.name} ${e.type} ${e.value}`)
    .sort();
