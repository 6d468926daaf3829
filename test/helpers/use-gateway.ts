// The built gateway as a vitest fixture: started once for the file (or before each test) with a
// keys file of the keys a test names, in front of the sandbox (or a proxy) that `setup` names,
// and stopped after. `setup` runs when the gateway starts, so it may read a sandbox that
// useSandbox() started before it; it returns undefined when the file's tests are skipped (a
// third-party program missing), and then nothing starts.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { TsigKey } from '../../src/dns/wire/tsig.js';
import { tempDir } from './cli.js';
import {
  startGatewayProcess,
  writeKeysFile,
  type GatewayProcess,
  type GatewayProcessOptions,
  type KeySpec,
} from './gateway-process.js';

export interface GatewaySetup extends Omit<GatewayProcessOptions, 'zone' | 'keysFile' | 'stateDir'> {
  keys: KeySpec[];
  /** The zone it serves; example.com unless said. */
  zone?: string;
  /** A state directory the test prepared (filled before the start); a fresh one unless said. */
  stateDir?: string;
}

export interface GatewayHandle extends GatewayProcess {
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
    const { keys: specs, zone = 'example.com', stateDir: given, ...rest } = wanted;
    const dir = tempDir('ddedge-gw-');
    const stateDir = given ?? join(dir, 'state');
    const keysFile = writeKeysFile(specs, join(dir, 'gateway.keys'));
    const gateway = await startGatewayProcess({ ...rest, zone, keysFile: keysFile.file, stateDir });
    current = { ...gateway, dir, stateDir, keysFile: keysFile.file, keys: keysFile.keys, secrets: keysFile.secrets };
  });
  after(async () => {
    const stopping = current;
    current = undefined;
    await stopping?.stop();
  });
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
      return live().endpoint;
    },
    get dyndns2() {
      return live().dyndns2;
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
  };
}
