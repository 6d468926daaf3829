// The agent's hosts are protected by its state, not only by the environment (which may differ):
// `ddedge update` records its hosts in the state directory; a `zone apply` run with that state
// directory and no --host (from CI, by hand, from another unit) never reverts or deletes them.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentEnv, withApi, zoneValue } from '../../helpers/agent-env.js';
import { baseEnv, runDist, runMain, tempDir } from '../../helpers/cli.js';
import { startIpv6Echo, type Ipv6Echo } from '../../helpers/ipv6-echo.js';
import { writeZone } from '../../helpers/zone.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const NAS = '::1e2:3ff:fe4a:5b6c';
const sandbox = useSandbox();
let echo: Ipv6Echo;
let stateDir: string;
beforeEach(async () => {
  echo = await startIpv6Echo('2a00:1450:4003:12::1');
  stateDir = tempDir('ddedge-state-');
});
afterEach(async () => {
  await echo.close();
});

/** The demo zone as it was before the agent ran: home's old A, no AAAA, one new record. */
const staleFile = () =>
  writeZone(
    '$ORIGIN example.com.\n@ A 192.0.2.10\nwww CNAME @\nhome A 192.0.2.20\n@ MX 10 mail\n@ TXT "v=spf1 mx -all"\nnew A 192.0.2.99\n',
  );
/** A zone command as CI would run it: API credentials and a state directory, no DDEDGE_HOSTS. */
const zoneEnv = (dir: string) => baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: dir });

describe("zone apply with the agent's state directory", () => {
  it("keeps every record the agent recorded (its A, its AAAA, a LAN host's AAAA), reported as kept with the reason", async () => {
    const update = await runDist(
      ['update'],
      agentEnv(sandbox, {
        ...withApi(sandbox),
        DDEDGE_STATE_DIR: stateDir,
        DDEDGE_HOSTS: `home.example.com,nas.example.com=${NAS}`,
        DDEDGE_NO_IPV4_FOR: 'nas.example.com',
        DDEDGE_IP: '81.0.2.15',
        DDEDGE_IPV6: 'yes',
        DDEDGE_IP6_SOURCES: `url:${echo.url}`,
      }),
    );
    expect(update.code, update.stderr).toBe(0);
    const agentSent = { a: '81.0.2.15', aaaa: '2a00:1450:4003:12::1', nas: '2a00:1450:4003:12:1e2:3ff:fe4a:5b6c' };
    expect([
      zoneValue(sandbox, 'home.example.com'),
      zoneValue(sandbox, 'home.example.com', 'AAAA'),
      zoneValue(sandbox, 'nas.example.com', 'AAAA'),
    ]).toEqual([agentSent.a, agentSent.aaaa, agentSent.nas]);

    // Without the agent's state, the same file would revert and delete the agent's records.
    const stranger = await runMain(['zone', 'plan', staleFile(), '--json'], zoneEnv(tempDir('ddedge-state-')));
    expect(stranger.code, stranger.stderr).toBe(0);
    expect(
      JSON.parse(stranger.stdout)
        .changes.map((c: { action: string; name: string; type: string }) => `${c.action} ${c.name} ${c.type}`)
        .sort(),
    ).toEqual([
      'create new.example.com A',
      'delete home.example.com AAAA',
      'delete nas.example.com AAAA',
      'update home.example.com A',
    ]);

    const applied = await runDist(['zone', 'apply', staleFile(), '--json'], zoneEnv(stateDir));
    expect(applied.code, applied.stderr).toBe(0);
    const report = JSON.parse(applied.stdout);
    expect(report.changes.map((c: { action: string; name: string }) => `${c.action} ${c.name}`)).toEqual([
      'create new.example.com',
    ]);
    const reason = `one of the agent's hosts, recorded in ${join(stateDir, 'state.json')}`;
    expect(report.kept).toEqual(
      expect.arrayContaining([
        { name: 'home.example.com', type: 'A', reason },
        { name: 'home.example.com', type: 'AAAA', reason },
        { name: 'nas.example.com', type: 'AAAA', reason },
        { name: 'home.example.com', type: 'A', reason: `in the file, not applied: ${reason}` },
      ]),
    );
    expect([
      zoneValue(sandbox, 'home.example.com'),
      zoneValue(sandbox, 'home.example.com', 'AAAA'),
      zoneValue(sandbox, 'nas.example.com', 'AAAA'),
    ]).toEqual([agentSent.a, agentSent.aaaa, agentSent.nas]);

    // The text plan says it too, and a second apply changes nothing.
    const plan = await runMain(['zone', 'plan', staleFile()], zoneEnv(stateDir));
    expect(plan.stdout).toMatch(/keep +home A 81\.0\.2\.15 +\(one of the agent's hosts, recorded in .*state\.json\)/);
    expect(plan.stdout).toMatch(
      /keep +nas AAAA 2a00:1450:4003:12:1e2:3ff:fe4a:5b6c +\(one of the agent's hosts, recorded in .*state\.json\)/,
    );
    const again = await runMain(['zone', 'apply', staleFile(), '--json'], zoneEnv(stateDir));
    expect(JSON.parse(again.stdout).changes).toEqual([]);
  });

  it("a damaged state file is reported, and only --host then names the agent's hosts", async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(stateDir, 'state.json'), '{"version":1,');
    const run = await runMain(['zone', 'plan', staleFile(), '--json', '--host', 'home.example.com'], zoneEnv(stateDir));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/state\.json is damaged .*only --host\/DDEDGE_HOSTS name the agent's hosts/);
    expect(JSON.parse(run.stdout).kept).toEqual(
      expect.arrayContaining([
        { name: 'home.example.com', type: 'A', reason: "one of the agent's hosts, DDEDGE_HOSTS or --host" },
      ]),
    );
  });

  // Found by an attack: read as empty, a damaged state let apply delete the agent's hosts.
  it('a damaged state file stops zone apply (exit 2), nothing changed', async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(stateDir, 'state.json'), '{"version":1,');
    const before = JSON.stringify(sandbox.model.services.find((s) => s.name === 'example.com')!.dns);
    const run = await runMain(['zone', 'apply', staleFile(), '--force'], zoneEnv(stateDir));
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      /zone apply stopped: .*state\.json is damaged.*the records the agent keeps are not known; nothing was changed/,
    );
    expect(JSON.stringify(sandbox.model.services.find((s) => s.name === 'example.com')!.dns)).toBe(before);
  });
});
