// A keys file that is no regular file (a FIFO, a device) is refused at once, with exit 2: read,
// a FIFO without a writer held the gateway (and check-keys) forever, deaf to SIGTERM since the
// read blocks the process, and a device without end (a 0600 node of /dev/zero) was read until
// it held gigabytes. A FIFO put at the path while the gateway runs is refused by the SIGHUP reload
// (the keys loaded before stay), and SIGTERM still stops the gateway at once.
import { execFileSync } from 'node:child_process';
import { unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, startDist, tempDir, type RunResult } from '../../helpers/cli.js';
import { keygenText } from '../../../src/gateway/keys/keygen.js';
import { spawnGateway, startGatewayProcess } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { dig } from '../../helpers/named.js';
import { requireTool } from '../../helpers/programs.js';

/** How long a refusal may take on a loaded machine before it is a hang; the child is then killed. */
const BOUND_MS = 60_000;

async function runBounded(child: ReturnType<typeof startDist>): Promise<RunResult | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), BOUND_MS)));
  const outcome = await Promise.race([child.result, hung]);
  clearTimeout(timer);
  // SIGKILL: a process blocked in a read never runs its SIGTERM handler.
  if (outcome === 'hung') child.kill('SIGKILL');
  return outcome;
}

describe('a keys file that is a FIFO (mode 0600, no writer)', () => {
  const fifo = (): string => {
    const path = join(tempDir(), 'gateway.keys');
    execFileSync('mkfifo', ['-m', '600', path]);
    return path;
  };

  it(
    'check-keys refuses it with exit 2, naming what it is',
    async () => {
      const run = await runBounded(startDist(['gateway', 'check-keys', fifo()], baseEnv()));
      expect(run).not.toBe('hung');
      const { code, stderr } = run as RunResult;
      expect(code, stderr).toBe(2);
      expect(stderr).toMatch(/--keys: ".*gateway\.keys" is a FIFO, not a regular file/);
    },
    BOUND_MS + 10_000,
  );

  it(
    'the gateway refuses it with exit 2 before it listens',
    async () => {
      const dir = tempDir();
      // A provider never reached: the keys file is refused before the zone is read.
      const run = await runBounded(
        spawnGateway({
          apiUrl: 'http://127.0.0.1:9',
          zone: 'example.com',
          keysFile: fifo(),
          stateDir: join(dir, 'state'),
          primaryName: 'gw.example.com',
        }),
      );
      expect(run).not.toBe('hung');
      const { code, stderr } = run as RunResult;
      expect(code, stderr).toBe(2);
      expect(stderr).toMatch(/is a FIFO, not a regular file/);
      expect(stderr).not.toContain('answering DNS');
    },
    BOUND_MS + 10_000,
  );
});

describe('a FIFO put at the keys path while the gateway runs', () => {
  const sandbox = useSandbox({ per: 'file' });
  const DIG = requireTool('dig', 'bind9-dnsutils');

  it.skipIf(!DIG)(
    'a SIGHUP reload refuses it, naming what it is; the gateway answers on; SIGTERM stops it at once',
    async () => {
      const dir = tempDir();
      const keysFile = join(dir, 'gateway.keys');
      writeFileSync(keysFile, `${keygenText('admin', 'hmac-sha256')}grant "admin" zonesub;\n`, { mode: 0o600 });
      const gateway = await startGatewayProcess({
        apiUrl: sandbox.url,
        zone: 'example.com',
        keysFile,
        stateDir: join(dir, 'state'),
        primaryName: null,
      });
      try {
        unlinkSync(keysFile);
        execFileSync('mkfifo', ['-m', '600', keysFile]);
        gateway.child.kill('SIGHUP');
        await gateway.logged(/not reloaded.*is a FIFO, not a regular file/, BOUND_MS);
        expect(await dig(gateway.port, ['example.com', 'SOA'])).toMatch(/status: NOERROR/);
      } finally {
        const stopped = gateway.stop();
        const run = await Promise.race([stopped, new Promise<'hung'>((r) => setTimeout(() => r('hung'), BOUND_MS))]);
        if (run === 'hung') gateway.child.kill('SIGKILL');
        expect(run).toBe(0);
      }
    },
    3 * BOUND_MS,
  );
});
