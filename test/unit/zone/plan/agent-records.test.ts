// The agent's hosts as its state file records them, so two tools on one zone never undo each
// other: a zone apply run with the agent's state directory keeps them whatever its own --host
// says.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeContainerNames } from '../../../../src/state/container-names.js';
import { writeState } from '../../../../src/state/state.js';
import { agentRecordsOf } from '../../../../src/zone/plan/agent-records.js';
import { ownership } from '../../../../src/zone/plan/ownership.js';
import { planZone } from '../../../../src/zone/plan/plan.js';
import { tempDir } from '../../../helpers/cli.js';

const Z = 'example.com';

function stateDirWith(
  records: { host: string; type: 'A' | 'AAAA'; address?: string; prefix?: string; lastError?: string }[],
): string {
  const dir = tempDir('ddedge-state-');
  writeState(dir, { version: 1, records: Object.fromEntries(records.map((r) => [`${r.host}/${r.type}`, r])) });
  return dir;
}

describe("the agent's records from its state file", () => {
  it('reads (host, type) as the agent recorded them: LAN hosts (name=<iid>) by their AAAA, a host still failing too', () => {
    const dir = stateDirWith([
      { host: 'home.example.com', type: 'A', address: '81.0.2.15' },
      {
        host: 'nas.example.com',
        type: 'AAAA',
        address: '2a00:1450:4003:12:1e2:3ff:fe4a:5b6c',
        prefix: '2a00:1450:4003:12::/64',
      },
      { host: 'new.example.com', type: 'A', lastError: 'refused' },
    ]);
    const found = agentRecordsOf(dir);
    expect(found.damage).toBeUndefined();
    expect(found.file).toBe(join(dir, 'state.json'));
    expect(found.records.map((r) => `${r.name} ${r.type}`).sort()).toEqual([
      'home.example.com A',
      'nas.example.com AAAA',
      'new.example.com A',
    ]);
  });

  it('no state file is no record; a damaged one is reported and read as none (as the agent reads it)', () => {
    expect(agentRecordsOf(tempDir('ddedge-state-'))).toMatchObject({ records: [] });
    const dir = tempDir('ddedge-state-');
    writeFileSync(join(dir, 'state.json'), '{"version":1,"records":');
    const damaged = agentRecordsOf(dir);
    expect(damaged.records).toEqual([]);
    expect(damaged.damage).toMatch(/state\.json is damaged/);
  });

  it('ownership keeps exactly the recorded (name, type), with the state file as the reason; --host still names itself', () => {
    const dir = stateDirWith([
      { host: 'home.example.com', type: 'A', address: '81.0.2.15' },
      { host: 'NAS.Example.com', type: 'AAAA', address: '2a00::5' },
    ]);
    const agent = agentRecordsOf(dir);
    const owner = ownership({ zone: Z, hosts: [`home.${Z}`], ignore: [], agent });
    expect(owner({ name: `home.${Z}`, type: 'A' })).toBe("one of the agent's hosts, DDEDGE_HOSTS or --host");
    expect(ownership({ zone: Z, hosts: [], ignore: [], agent })({ name: `home.${Z}`, type: 'A' })).toBe(
      `one of the agent's hosts, recorded in ${join(dir, 'state.json')}`,
    );
    expect(owner({ name: `nas.${Z}`, type: 'AAAA' })).toBe(
      `one of the agent's hosts, recorded in ${join(dir, 'state.json')}`,
    );
    expect(owner({ name: `nas.${Z}`, type: 'A' })).toBeUndefined();
    expect(owner({ name: `nas.${Z}`, type: 'TXT' })).toBeUndefined();
  });

  it('the plan neither reverts nor deletes a recorded host, and says why', () => {
    const dir = stateDirWith([{ host: 'home.example.com', type: 'A', address: '81.0.2.15' }]);
    const owner = ownership({ zone: Z, hosts: [], ignore: [], agent: agentRecordsOf(dir) });
    const live = [{ entityID: '1', name: `home.${Z}`, type: 'A', value: '81.0.2.15' }];
    const reverting = planZone(
      live,
      { zone: Z, records: [{ name: `home.${Z}`, type: 'A', value: '192.0.2.20', where: 'z:2:1' }], notes: [] },
      owner,
    );
    expect(reverting.changes).toEqual([]);
    expect(reverting.kept.map((k) => `${k.name} ${k.type} ${k.value}: ${k.reason}`)).toEqual([
      `home.${Z} A 81.0.2.15: one of the agent's hosts, recorded in ${join(dir, 'state.json')}`,
      `home.${Z} A 192.0.2.20: in the file, not applied: one of the agent's hosts, recorded in ${join(dir, 'state.json')}`,
    ]);
    expect(planZone(live, { zone: Z, records: [], notes: [] }, owner).changes).toEqual([]);
  });
});

describe('the names containers gave the agent (containers.json beside its state)', () => {
  const containersDir = (names: { name: string; target?: string }[]): string => {
    const dir = tempDir('ddedge-state-');
    writeContainerNames(dir, {
      version: 1,
      names: names.map((n) => ({ ...n, containers: ['web'], since: '2026-12-02T00:00:00.000Z' })),
      owned: [],
    });
    return dir;
  };

  it('a CNAME a container asked for (ddedge.target) is one of the records the agent keeps', () => {
    const dir = containersDir([{ name: 'cloud.example.com', target: 'home.example.com' }, { name: 'git.example.com' }]);
    const agent = agentRecordsOf(dir);
    expect(agent.records.map((r) => `${r.name} ${r.type}`)).toEqual(['cloud.example.com CNAME']);
    const owner = ownership({ zone: Z, hosts: [], ignore: [], agent });
    expect(owner({ name: `cloud.${Z}`, type: 'CNAME' })).toBe(
      `a name a container gave the agent, recorded in ${join(dir, 'containers.json')}`,
    );
    expect(owner({ name: `cloud.${Z}`, type: 'TXT' })).toBeUndefined();
    // A zone apply of a file without it neither deletes it.
    const live = [{ entityID: '7', name: `cloud.${Z}`, type: 'CNAME', value: `home.${Z}` }];
    expect(planZone(live, { zone: Z, records: [], notes: [] }, owner).changes).toEqual([]);
  });

  it('a damaged containers.json is reported like a damaged state file (an apply stops)', () => {
    const dir = tempDir('ddedge-state-');
    writeFileSync(join(dir, 'containers.json'), '{"version":1,');
    expect(agentRecordsOf(dir).damage).toMatch(/containers\.json/);
  });
});
