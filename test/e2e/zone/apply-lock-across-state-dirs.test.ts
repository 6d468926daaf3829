// Two `zone apply` runs of one zone of one account on one machine, each with its own state
// directory: the second stops before any change (exit 4, as for a held lock) and says which
// process holds the zone; the first converges alone. The lock both share is in the user's
// runtime directory (root's /run/ddedge here), not in either state directory. Two processes of
// the built file; the first is held mid-apply by a proxy that keeps its first create until the
// second has been answered (no sleep, no guess of how long a start takes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, runDist, startDist, tempDir } from '../../helpers/cli.js';
import { startHoldingProxy, type HoldingProxy } from '../../helpers/holding-proxy.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { emptyZone, writeZone } from '../../helpers/zone.js';

const ZONE = 'zone.example';
const sandbox = useSandbox({ per: 'file' });
let proxy: HoldingProxy;
beforeAll(async () => {
  proxy = await startHoldingProxy(sandbox.url);
});
afterAll(async () => {
  await proxy.close();
});

const env = (stateDir: string) =>
  baseEnv({
    DDEDGE_API_URL: proxy.url,
    DDEDGE_API_USER: sandbox.model.account.apiUser,
    DDEDGE_API_PASSWORD: sandbox.model.account.apiPassword,
    DDEDGE_STATE_DIR: stateDir,
  });

describe('two applies of one zone with different state directories', () => {
  it('the second changes nothing and names the first, which converges alone', async () => {
    emptyZone(sandbox, ZONE);
    const file = writeZone(`$ORIGIN ${ZONE}.\na A 192.0.2.1\nb A 192.0.2.2\n`);
    const held = proxy.hold('service/dnscreate');
    const first = startDist(['zone', 'apply', file, '--method', 'calls'], env(tempDir('ddedge-state-a-')));
    await held.arrived;
    const lists = sandbox.calls.get('service/dnslist');
    const second = await runDist(['zone', 'apply', file, '--method', 'calls'], env(tempDir('ddedge-state-b-')));
    expect(second.code, second.stdout + second.stderr).toBe(4);
    expect(second.stderr).toMatch(
      new RegExp(
        `another ddedge zone apply of zone\\.example \\(pid ${first.pid}\\) is running \\(lock [^)]*\\); nothing ` +
          'was changed; try again when it has finished',
      ),
    );
    // Stopped before it read the zone (the first's other create may land meanwhile).
    expect(sandbox.calls.get('service/dnslist')).toBe(lists);
    held.release();
    expect((await first.result).code).toBe(0);
    const names = sandbox.model.services.find((s) => s.name === ZONE)!.dns.map((e) => `${e.name} ${e.value}`);
    expect(names.sort()).toEqual([`a.${ZONE} 192.0.2.1`, `b.${ZONE} 192.0.2.2`]);
  });
});
