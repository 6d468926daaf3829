// A second SIGTERM while the gateway is still starting (its zones being read from a provider that
// does not answer yet) stops it at once, exit 143, as it does once it answers: the start only reads,
// so nothing is left half-made. The zone read is held at a proxy so the start stays unfinished.
import { afterAll, expect, it } from 'vitest';
import { tempDir, waitForOutput } from '../../helpers/cli.js';
import { startHoldingProxy, type HoldingProxy } from '../../helpers/holding-proxy.js';
import { spawnGateway, writeKeysFile } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });
let proxy: HoldingProxy | undefined;
afterAll(async () => {
  await proxy?.close();
});

it('stops at once at a second SIGTERM while the zones are still being read, exit 143', async () => {
  proxy = await startHoldingProxy(sandbox.url);
  const read = proxy.hold('service/dnslist');
  const keys = writeKeysFile([{ name: 'admin', rules: ['grant "admin" zonesub;'] }]);
  const child = spawnGateway({ apiUrl: proxy.url, zone: 'example.com', keysFile: keys.file, stateDir: tempDir() });
  await read.arrived;
  child.kill('SIGTERM');
  // Two signals sent at once may reach the process as one: the second waits for the first's line.
  await waitForOutput(child, 'stderr', (text) => text.includes('gateway: SIGTERM while starting: it stops once'));
  child.kill('SIGTERM');
  const result = await child.result;
  read.release();
  expect(result.code).toBe(143);
  expect(result.stderr).toContain(
    'gateway: SIGTERM again while starting: stopping at once; the start is left unfinished',
  );
  expect(result.stderr).not.toContain('answering DNS');
});
