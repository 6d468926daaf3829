// A stop while an update is being written. SIGTERM: the gateway finishes it, answers it, and exits
// 0; the provider holds the whole update, not half of it. Ctrl-C: the gateway says it waits for the
// update, and for how long at most, and that a second Ctrl-C stops at once; the second stops it at
// once (exit 130) and says what that may leave. The first write is held at a proxy until the signals
// have been sent; each test has a gateway (and a proxy) of its own.
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
const proxies: HoldingProxy[] = [];
const gateway = useGateway(
  async () => {
    if (!NSUPDATE) return undefined;
    proxy = await startHoldingProxy(sandbox.url);
    proxies.push(proxy);
    return { apiUrl: proxy.url, primaryName: null, keys: [{ name: 'admin', rules: ['grant "admin" zonesub;'] }] };
  },
  { per: 'test' },
);
afterAll(async () => {
  for (const held of proxies) await held.close();
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

it.skipIf(!NSUPDATE)('says how long it waits at Ctrl-C, and stops at once with exit 130 at the second', async () => {
  const write = proxy!.hold('service/dnscreate');
  const answered = new Promise<{ code: number; out: string }>((resolve) => {
    // Over TCP (-v): the client learns of the gateway's exit when its connection closes.
    const child = execFile(
      'nsupdate',
      ['-v', '-t', '60', '-y', gateway.nsupdateKey('admin')],
      { timeout: HANG_BOUND_MS },
      (error, stdout, stderr) => resolve({ code: error ? 1 : 0, out: stdout + stderr }),
    );
    child.stdin!.end(`server 127.0.0.1 ${gateway.port}\nupdate add cut.example.com 60 A 192.0.2.91\nsend\n`);
  });
  await write.arrived;
  gateway.child.kill('SIGINT');
  await gateway.logged(
    new RegExp(
      'gateway: stopping; waiting for 1 update in flight to finish and be answered, at most 60s ' +
        '\\(Ctrl-C or SIGTERM again stops at once\\)',
    ),
  );
  gateway.child.kill('SIGINT');
  const result = await gateway.child.result;
  expect(result.code).toBe(130);
  expect(result.stderr).toContain(
    'gateway: SIGINT again: stopping at once; 1 update in flight is left unanswered, its change maybe made at ' +
      'the provider, in whole or in part',
  );
  expect(result.stderr).not.toMatch(/gateway: stopped\n/);
  // Its start was over: the second signal's line is the one of a gateway that answers, said once.
  expect(result.stderr).not.toContain('while starting');
  // The client got no answer.
  expect((await answered).code).toBe(1);
  write.release();
});
