// ddedge zone against providers that page, count and answer as real ones have (a zone is only
// as safe as its listing is complete): the sandbox keeping the real state, and a small HTTP
// provider in front of it that bends requests and answers (test/helpers/mock-api.ts). The built
// dist/ddedge.mjs runs the 10,000-entry export, plan and apply; the other shapes are the
// command's logic, run by main() in this process.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DnsEntry } from '../../../src/api/endpoints/service.js';
import { withApi } from '../../helpers/agent-env.js';
import { baseEnv, runDist, runMain, tempDir } from '../../helpers/cli.js';
import { hostileProvider, type HostileProvider, type ProviderShape } from '../../helpers/mock-api.js';
import { emptyZone, writeZone } from '../../helpers/zone.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const ZONE = 'zone.example';
const sandbox = useSandbox();
let stateDir: string;
let provider: HostileProvider | undefined;
beforeEach(async () => {
  stateDir = tempDir('ddedge-state-');
});
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const env = (extra: Record<string, string> = {}) =>
  baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: stateDir, DDEDGE_SERVICE: ZONE, ...extra });
const zone = () => sandbox.model.services.find((s) => s.name === ZONE)!.dns;
const hostA = (i: number) => `h${i} A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

/** `count` A records h0..; entity IDs from 1000, below the ones the sandbox gives new entries. */
function seed(count: number): void {
  const service = emptyZone(sandbox, ZONE);
  sandbox.model.nextId = 1_000_000;
  for (let i = 0; i < count; i++) {
    const [name, , value] = hostA(i).split(' ');
    service.dns.push({
      entityID: String(1000 + i),
      name: `${name}.${ZONE}`,
      type: 'A',
      ttl: '-',
      priority: '-',
      value: value!,
    } satisfies DnsEntry);
  }
}
const fileOf = (lines: string[]) => writeZone(`$ORIGIN ${ZONE}.\n${lines.join('\n')}\n`);
const seeded = (count: number) => Array.from({ length: count }, (_, i) => hostA(i));
async function through(shape: ProviderShape): Promise<Record<string, string>> {
  provider = await hostileProvider(sandbox.url, shape);
  return env({ DDEDGE_API_URL: provider.url });
}
const isList = (operation: string) => operation === 'service/dnslist';

describe('zones past 8 pages: paging follows total', () => {
  it('10,000 entries are exported, planned (no change from the export) and applied', async () => {
    seed(10_000);
    const exported = await runDist(['zone', 'export', '--output', join(stateDir, 'all.zone')], env());
    expect(exported.code, exported.stderr).toBe(0);
    sandbox.calls.clear();
    const plan = await runDist(['zone', 'plan', '--expect-no-changes', join(stateDir, 'all.zone')], env());
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('0 to create, 0 to update, 0 to delete, 10000 unchanged');
    expect(sandbox.calls.get('service/dnslist')).toBe(10);

    // One more record and one fewer: two calls one by one, not a replace of 10,000 records.
    const lines = [...seeded(10_000).slice(1), 'extra A 192.0.2.1'];
    sandbox.calls.clear();
    const apply = await runDist(['zone', 'apply', fileOf(lines)], env());
    expect(apply.code, apply.stderr).toBe(0);
    expect(Object.fromEntries(sandbox.calls)).toEqual({
      'service/dnslist': 20,
      'service/dnscreate': 1,
      'service/dnsdelete': 1,
    });
    expect(zone()).toHaveLength(10_000);
  });

  it('a provider that shortens pages to 100 entries: 100 pages, bounded by its total', async () => {
    seed(2_500);
    const shortened = await through({ request: (op, f) => isList(op) && f.set('pageLength', '100') });
    const plan = await runMain(['zone', 'plan', '--expect-no-changes', fileOf(seeded(2_500))], shortened);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(provider!.operations.filter(isList)).toHaveLength(25);
  });
});

describe('a listing not known to be complete drives no delete and no dnssetzone: exit 4, nothing changed', () => {
  // As once reported: a provider that ignores `page` and omits `total` made a zone of 1,504
  // entries shrink to 1,000 with exit 0.
  const ignoresPageNoTotal: ProviderShape = {
    request: (op, f) => isList(op) && f.delete('page'),
    answer: (op, _f, e) => isList(op) && delete e.responseData.queryInfo.total,
  };

  it('page ignored, no total: plan shows a warned plan and exits 4; apply and export change and write nothing', async () => {
    seed(1_504);
    const hostile = await through(ignoresPageNoTotal);
    const file = fileOf(seeded(1_504));
    const plan = await runMain(['zone', 'plan', file], hostile);
    expect(plan.code).toBe(4);
    expect(plan.stdout).toMatch(
      /warning: this plan is not reliable: service\/dnslist answered page 2 with the entries of page 1 .*1000 entries seen, and no total/,
    );
    expect(plan.stderr).toMatch(/not reliable and cannot be applied/);
    const json = await runMain(['zone', 'plan', file, '--json'], hostile);
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stdout).incompleteListing).toMatch(/no total/);

    for (const method of ['calls', 'setzone']) {
      const apply = await runMain(['zone', 'apply', file, '--force', '--method', method], hostile);
      expect(apply.code, apply.stdout + apply.stderr).toBe(4);
      expect(apply.stderr).toMatch(/zone apply stopped: .*nothing was changed/);
    }
    expect(provider!.operations.filter((op) => !isList(op))).toEqual([]);
    expect(zone()).toHaveLength(1_504);
    expect(existsSync(join(stateDir, 'zone-backups'))).toBe(false);

    const out = join(stateDir, 'export.zone');
    const exported = await runMain(['zone', 'export', '--output', out], hostile);
    expect(exported.code).toBe(4);
    expect(exported.stderr).toMatch(/zone export stopped: .*nothing was written/);
    expect(existsSync(out)).toBe(false);
  });

  it('no total, every page followed: still not known to be complete', async () => {
    seed(1_504);
    const hostile = await through({ answer: (op, _f, e) => isList(op) && delete e.responseData.queryInfo.total });
    const apply = await runMain(['zone', 'apply', fileOf(seeded(1_000))], hostile);
    expect(apply.code, apply.stderr).toBe(4);
    expect(apply.stderr).toMatch(
      /gave no total \(queryInfo\.total\), so the 1504 entries listed are not known to be all of them/,
    );
    expect(zone()).toHaveLength(1_504);
  });

  it.each<[string, ProviderShape, RegExp]>([
    [
      'page 2 answered with page 1, total given',
      { request: (op, f) => isList(op) && f.set('page', '1') },
      /answered page 2 with the entries of page 1 .*1000 entries seen of 1504/,
    ],
    [
      'the last page empty (fewer entries than total)',
      {
        answer: (op, f, e) => {
          if (isList(op) && f.get('page') === '2') e.responseData.dns = [];
        },
      },
      /listed 1000 of the 1504 entries it announced/,
    ],
    [
      'a total that changes between pages',
      {
        answer: (op, f, e) => {
          if (isList(op) && f.get('page') === '2') e.responseData.queryInfo.total = 1_505;
        },
      },
      /announced 1504 entries on page 1 and 1505 on page 2/,
    ],
    [
      'an entry on two pages',
      {
        answer: (op, f, e) =>
          isList(op) &&
          f.get('page') === '2' &&
          e.responseData.dns.unshift({
            entityID: '1000',
            name: `h0.${ZONE}`,
            type: 'A',
            ttl: '-',
            priority: '-',
            value: '10.0.0.0',
          }),
      },
      /listed entity 1000 twice/,
    ],
  ])('%s: exit 4, nothing changed', async (_name, shape, reason) => {
    seed(1_504);
    const hostile = await through(shape);
    const apply = await runMain(['zone', 'apply', '--force', fileOf(seeded(1_000))], hostile);
    expect(apply.code, apply.stdout + apply.stderr).toBe(4);
    expect(apply.stderr).toMatch(reason);
    expect(provider!.operations.filter((op) => !isList(op))).toEqual([]);
    expect(zone()).toHaveLength(1_504);
  });
});

describe('an apply that crosses a limit half-way says what was done, what was not, and where the backup is', () => {
  it('the provider gives out after 3 writes (503): exit 5, partial, never 4 "transient" once changes were made', async () => {
    seed(3);
    let served = 0;
    const hostile = await through({ unavailable: (op) => !isList(op) && ++served > 3 });
    const lines = [...seeded(3), ...Array.from({ length: 10 }, (_, i) => `n${i} A 192.0.2.${i + 1}`)];
    const run = await runMain(['zone', 'apply', fileOf(lines), '--method', 'calls'], hostile);
    expect(run.code, run.stdout + run.stderr).toBe(5);
    expect(run.stderr).toMatch(/stopped: the create of n\d IN A 192\.0\.2\.\d+ failed: .*503/);
    expect(run.stderr).toMatch(/does not say whether the provider made it; read again, the zone shows it was not made/);
    expect(run.stderr).toMatch(/partial \(exit 5\): the zone is part way to the file/);
    expect(run.stderr).toMatch(/done \(3\):\n( +create +n\d IN A 192\.0\.2\.\d+\n){3}not done \(7\):/);
    expect(run.stderr).toMatch(/backup: .*zone-backups\/zone\.example\/\d{8}T\d{6}\.\d{3}Z\.zone/);
    expect(zone()).toHaveLength(6);
    // Again: the provider still gives out, and the zone read again shows the failed call was not
    // made and nothing else either: exit 4 (retry later), not 5.
    const json = await runMain(['zone', 'apply', fileOf(lines), '--method', 'calls', '--json'], hostile);
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stdout)).toMatchObject({
      exitCode: 4,
      failedCallMayHaveBeenMade: true,
      failedCallMade: false,
      done: [],
      notDone: expect.any(Array),
    });
  });

  it("a 503 before anything was sent (the dnssetzone's second read): exit 4, retry later; the backup is named", async () => {
    seed(3);
    let lists = 0;
    const hostile = await through({ unavailable: (op) => isList(op) && ++lists > 1 });
    const run = await runMain(['zone', 'apply', fileOf(seeded(2)), '--method', 'setzone'], hostile);
    expect(run.code, run.stdout + run.stderr).toBe(4);
    expect(run.stderr).not.toMatch(/whether the provider made it|partial/);
    expect(run.stderr).toMatch(/done \(0\):\nnot done \(1\):[\s\S]*backup: /);
    expect(provider!.operations.filter((op) => !isList(op))).toEqual([]);
  });

  it('the entity limit (4003) refusing a create: exit 7 with done, not done and the backup; a dnssetzone over it changes nothing', async () => {
    // example.net is on the redirection plan: 50 DNS entries at most, as the provider's plans limit them.
    const lines = ['@ A 192.0.2.30', ...Array.from({ length: 55 }, (_, i) => `n${i} A 192.0.2.${i + 1}`)];
    const file = writeZone(`$ORIGIN example.net.\n${lines.join('\n')}\n`);
    const service = sandbox.model.services.find((s) => s.name === 'example.net')!;
    const replace = await runMain(['zone', 'apply', file, '--service', 'example.net', '--method', 'setzone'], env());
    expect(replace.code).toBe(7);
    expect(replace.stderr).toMatch(/stopped: the service\/dnssetzone failed: .*4003/);
    expect(replace.stderr).toMatch(/done \(0\):/);
    expect(service.dns).toHaveLength(1);
    const run = await runMain(['zone', 'apply', file, '--service', 'example.net', '--method', 'calls'], env());
    expect(run.code).toBe(7);
    expect(run.stderr).toMatch(/error 4003/);
    expect(run.stderr).toMatch(/done \(49\):[\s\S]*not done \(6\):[\s\S]*backup: /);
    expect(service.dns).toHaveLength(50);
  });
});

describe("a zone at its plan's entity limit", () => {
  it('a plan that replaces records makes room with its own deletes when the provider refuses a create (4003), and converges', async () => {
    // example.net is on the redirection plan: 50 DNS entries at most.
    const lines = ['@ A 192.0.2.30', ...Array.from({ length: 49 }, (_, i) => `n${i} A 192.0.2.${i + 1}`)];
    const service = sandbox.model.services.find((s) => s.name === 'example.net')!;
    const full = await runMain(
      ['zone', 'apply', writeZone(`$ORIGIN example.net.\n${lines.join('\n')}\n`), '--service', 'example.net'],
      env(),
    );
    expect(full.code, full.stderr).toBe(0);
    expect(service.dns).toHaveLength(50);
    const renamed = [...lines.slice(0, 45), ...Array.from({ length: 5 }, (_, i) => `r${i} A 192.0.2.${200 + i}`)];
    const file = writeZone(`$ORIGIN example.net.\n${renamed.join('\n')}\n`);
    const run = await runMain(['zone', 'apply', file, '--service', 'example.net', '--method', 'calls'], env());
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toMatch(/entity limit; making the plan's 5 deletes first/);
    expect(service.dns).toHaveLength(50);
    expect(service.dns.map((e) => e.name)).toEqual(expect.arrayContaining(['r0.example.net', 'r4.example.net']));
    expect((await runMain(['zone', 'plan', '--expect-no-changes', file, '--service', 'example.net'], env())).code).toBe(
      0,
    );
  });
});

describe('the sandbox holds zones of 100,000 entries and enforces the plan limit in every write', () => {
  it('a 100,000-record dnssetzone is accepted on the largest plan; one more is 4003', async () => {
    emptyZone(sandbox, ZONE);
    const records = Array.from({ length: 100_000 }, (_, i) => ({
      name: `h${i}`,
      type: 'A',
      ttl: '-',
      priority: '-',
      value: hostA(i).split(' ')[2],
    }));
    const call = (action: string, fields: Record<string, string>) =>
      fetch(`${sandbox.url}/service/${action}/`, {
        method: 'POST',
        body: new URLSearchParams({
          apiuser: sandbox.model.account.apiUser,
          apipasswd: sandbox.model.account.apiPassword,
          serviceName: ZONE,
          ...fields,
        }),
      }).then((r) => r.json());
    const set = await call('dnssetzone', { dnsZoneData: Buffer.from(JSON.stringify(records)).toString('base64') });
    expect(set.success, JSON.stringify(set.messages)).toBe(true);
    expect(zone()).toHaveLength(100_000);
    const more = await call('dnscreate', { name: 'one-more', type: 'A', value: '192.0.2.1' });
    expect(more).toMatchObject({ success: false, errorCode: 4003 });
    const last = await call('dnslist', { page: '100', pageLength: '1000' });
    expect(last.responseData.queryInfo).toMatchObject({ total: 100_000, results: 1000 });
  });
});
