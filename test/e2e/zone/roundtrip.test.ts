// Exactness of `ddedge zone` (a zone round-trips, or zone as code loses records): records a
// master file cannot hold are kept by the apply of an exported file, never deleted; a backup
// restores the zone record for record, those records included (backup rotation:
// zone-backup-rotation.test.ts). The built dist/ddedge.mjs against the sandbox runs the round
// trip and the restore; records are made with `ddedge api`, and the other rules checked, by
// main() in this process.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { withApi } from '../../helpers/agent-env.js';
import { baseEnv, runDist, runMain, tempDir } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const ZONE = 'example.com';
const sandbox = useSandbox();
let stateDir: string;
let cwd: string;
beforeEach(async () => {
  stateDir = tempDir('ddedge-state-');
  cwd = tempDir('ddedge-cwd-');
});

const env = () => baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: stateDir, DDEDGE_SERVICE: ZONE });
const ddedge = (args: string[]) => runDist(args, env(), cwd);
/** main() in this process: the rules after the first round trip and the restore, without a process start each. */
const inProcess = (args: string[]) => runMain(args, env(), cwd);
/** The zone as the provider holds it, entity IDs aside: what "record for record" compares. */
const entries = () =>
  sandbox.model.services
    .find((s) => s.name === ZONE)!
    .dns.map((e) => `${e.name} ${e.ttl} ${e.type} ${e.priority} ${e.value}`)
    .sort();

/** A 254-character target: a host name of valid labels, longer than a name may be (RFC 1035 §2.3.4). */
const LONG_TARGET = Array.from({ length: 4 }, (_, i) => `${String(i)}${'t'.repeat(62)}`).join('.') + '.net';

/** Setup through `ddedge api` (main() in this process: api-command.test.ts runs the built file). */
async function create(name: string, type: string, value: string, extra: string[] = []): Promise<void> {
  const run = await runMain(
    ['api', 'service', 'dnscreate', '--serviceName', ZONE, '--name', name, '--type', type, '--value', value, ...extra],
    env(),
    cwd,
  );
  expect(run.code, run.stderr).toBe(0);
}

/** What the provider holds and a master file cannot: the four, one of each shape. */
async function createUnwritable(): Promise<void> {
  await create(`alias.${ZONE}`, 'CNAME', '*.example.net');
  await create(ZONE, 'MX', '*.mx.example.net', ['--priority', '20']);
  await create(`long.${ZONE}`, 'CNAME', LONG_TARGET);
  await create(ZONE, 'CAA', '0 issue "ca"quoted"');
}

describe('export, then apply unchanged, changes nothing', () => {
  it('records a master file cannot hold are kept (with the reason), never deleted', async () => {
    expect(LONG_TARGET.length).toBeGreaterThan(253);
    await createUnwritable();
    const before = entries();
    const exported = await ddedge(['zone', 'export', '--output', 'rt.zone']);
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(join(cwd, 'rt.zone'), 'utf8');
    // Shown to the reader of the file, as comments.
    expect(text).toMatch(/^; .*alias .*\*\.example\.net/m);

    const plan = await ddedge(['zone', 'plan', 'rt.zone', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout).changes).toEqual([]);

    const applied = await ddedge(['zone', 'apply', 'rt.zone', '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    const report = JSON.parse(applied.stdout);
    expect(report.changes).toEqual([]);
    expect(report.summary).toMatchObject({ create: 0, update: 0, delete: 0 });
    const kept = report.kept.filter((k: { reason: string }) =>
      k.reason.startsWith('cannot be written in a master file'),
    );
    expect(kept.map((k: { name: string; type: string }) => `${k.name} ${k.type}`).sort()).toEqual([
      `alias.${ZONE} CNAME`,
      `${ZONE} CAA`,
      `${ZONE} MX`,
      `long.${ZONE} CNAME`,
    ]);
    expect(entries()).toEqual(before);

    // The text plan says so too.
    const text2 = await ddedge(['zone', 'plan', 'rt.zone']);
    expect(text2.stdout).toMatch(/keep +alias CNAME \*\.example\.net +\(cannot be written in a master file: /);
  });

  it('a file that changes other records leaves them alone too, and needs no --force for them', async () => {
    await createUnwritable();
    const exported = await inProcess(['zone', 'export', '--output', 'rt.zone']);
    expect(exported.code, exported.stderr).toBe(0);
    writeFileSync(join(cwd, 'rt.zone'), readFileSync(join(cwd, 'rt.zone'), 'utf8') + 'new IN A 192.0.2.77\n');
    const applied = await inProcess(['zone', 'apply', 'rt.zone', '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout).summary).toMatchObject({ create: 1, update: 0, delete: 0 });
    expect(entries()).toEqual(
      expect.arrayContaining([`alias.${ZONE} - CNAME - *.example.net`, `${ZONE} - CAA - 0 issue "ca"quoted"`]),
    );
  });
});

describe('a backup restores the zone record for record', () => {
  it('records a master file cannot hold included, after they were deleted or changed', async () => {
    await createUnwritable();
    await create(`txt.${ZONE}`, 'TXT', 'kept as it was', ['--ttl', '600']);
    const before = entries();

    // A change through a file: the apply writes the backup of the zone as it was.
    const exported = await ddedge(['zone', 'export', '--output', 'rt.zone']);
    expect(exported.code, exported.stderr).toBe(0);
    writeFileSync(
      join(cwd, 'rt.zone'),
      readFileSync(join(cwd, 'rt.zone'), 'utf8').replace(/"kept as it was"/, '"changed"'),
    );
    const applied = await ddedge(['zone', 'apply', 'rt.zone', '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    const { backup } = JSON.parse(applied.stdout);
    expect(backup).toMatch(/zone-backups\/example\.com\/\d{8}T\d{6}\.\d{3}Z\.zone$/);

    // Then the zone is changed behind ddedge's back: unwritable records deleted and altered.
    const live = sandbox.model.services.find((s) => s.name === ZONE)!.dns;
    const alias = live.find((e) => e.name === `alias.${ZONE}`)!;
    const long = live.find((e) => e.name === `long.${ZONE}`)!;
    for (const id of [alias.entityID, long.entityID])
      expect((await inProcess(['api', 'service', 'dnsdelete', '--serviceName', ZONE, '--entityID', id])).code).toBe(0);
    const caa = live.find((e) => e.type === 'CAA')!;
    expect(
      (
        await inProcess([
          'api',
          'service',
          'dnsupdate',
          '--serviceName',
          ZONE,
          '--entityID',
          caa.entityID,
          '--value',
          '0 issue "other"ca"',
        ])
      ).code,
    ).toBe(0);
    await create(`extra.${ZONE}`, 'CNAME', '*.later.example.net');
    expect(entries()).not.toEqual(before);

    const restored = await ddedge(['zone', 'apply', backup, '--force', '--json']);
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout).drift).toEqual([]);
    expect(entries()).toEqual(before);
    // And the restored zone is the backup's: planning it again changes nothing.
    expect(JSON.parse((await ddedge(['zone', 'plan', backup, '--json'])).stdout).changes).toEqual([]);
  });
});

// Found by a trial as a new user: the JSON form is as exact as the master file, `zone export
// --json` prints JSON, and a zone file whose bytes are not UTF-8 is refused where it is wrong.
describe('zone export --format json, then apply unchanged', () => {
  it('changes nothing: records a file cannot hold are left out, named on stderr, and kept', async () => {
    await create(`alias.${ZONE}`, 'CNAME', '*.example.net');
    await create(ZONE, 'MX', '*.mx.example.net', ['--priority', '20']);
    await create(ZONE, 'CAA', '0 issue "le"t.org"');
    const before = entries();

    const exported = await inProcess(['zone', 'export', '--format', 'json', '--output', 'rt.json']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toMatch(/left out of the JSON form, kept by plan and apply: alias\.example\.com CNAME/);

    const plan = await inProcess(['zone', 'plan', 'rt.json', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout);
    expect(planned.changes).toEqual([]);
    expect(planned.kept.map((k: { name: string; type: string }) => `${k.name} ${k.type}`)).toEqual(
      expect.arrayContaining([`alias.${ZONE} CNAME`, `${ZONE} MX`, `${ZONE} CAA`]),
    );

    const applied = await inProcess(['zone', 'apply', 'rt.json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(entries()).toEqual(before);
  });

  it('zone export --json prints the JSON form on stdout; with --format bind it is exit 2', async () => {
    const json = await inProcess(['zone', 'export', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const records = JSON.parse(json.stdout);
    expect(Array.isArray(records) && records.length).toBeGreaterThan(0);
    const both = await inProcess(['zone', 'export', '--json', '--format', 'bind']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--json prints the JSON form/);
  });
});

describe('a zone file that is not UTF-8', () => {
  it('is exit 2 naming the line and column of the byte, and nothing is sent', async () => {
    const before = entries();
    // "café" in Latin-1: 0xE9 alone is not UTF-8.
    writeFileSync(
      join(cwd, 'latin1.zone'),
      Buffer.concat([Buffer.from(`$ORIGIN ${ZONE}.\nw IN TXT "caf`), Buffer.from([0xe9]), Buffer.from('"\n')]),
    );
    const run = await inProcess(['zone', 'apply', 'latin1.zone']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('latin1.zone:2:14: a byte that is not UTF-8');
    expect(entries()).toEqual(before);
  });
});
