// SIGTERM while an update is being written: the gateway finishes it, answers it, and exits 0;
// the provider holds the whole update, not half of it. The first write is held at a proxy until
// the signal has been sent.
import { execFile } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { HANG_BOUND_MS } from '../../helpers/cli.js';
import { startHoldingProxy, type HoldingProxy } from '../../helpers/holding-proxy.js';
import { requireTool } from '../../helpers/programs.js';
import { useGateway } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const NSUPDATE = requireTool('nsupdate', 'bind9-dnsutils');

const sandbox = useSandbox({ per: 'file' });
let proxy: HoldingProxy | undefined;
const gateway = useGateway(async () => {
  if (!NSUPDATE) return undefined;
  proxy = await startHoldingProxy(sandbox.url);
  return { apiUrl: proxy.url, primaryName: null, keys: [{ name: 'admin', rules: ['grant "admin" zonesub;'] }] };
});
afterAll(async () => {
  await proxy?.close();
});

it.skipIf(!NSUPDATE)('finishes and answers the update in flight at SIGTERM, then exits 0', async () => {
  const write = proxy!.hold('service/dnscreate');
  const answered = new Promise<{ code: number; out: string }>((resolve) => {
    const child = execFile(
      'nsupdate',
      ['-t', '60', '-y', gateway.nsupdateKey('admin')],
      { timeout: HANG_BOUND_MS },
      (error, stdout, stderr) => resolve({ code: error ? 1 : 0, out: stdout + stderr }),
    );
    child.stdin!.end(
      `server 127.0.0.1 ${gateway.port}\nupdate add late.example.com 60 A 192.0.2.81\nupdate add late.example.com 60 A 192.0.2.82\nsend\n`,
    );
  });
  // SIGTERM once the first write is on its way to the provider; then the provider answers.
  await write.arrived;
  gateway.child.kill('SIGTERM');
  await gateway.logged(/gateway: stopping; waiting for 1 update in flight/);
  write.release();
  const result = await answered;
  expect(result.code, result.out).toBe(0);
  expect((await gateway.child.result).code).toBe(0);
  const late = sandbox.model.services[0]!.dns.filter((e) => e.name === 'late.example.com')
    .map((e) => e.value)
    .sort();
  expect(late).toEqual(['192.0.2.81', '192.0.2.82']);
});
