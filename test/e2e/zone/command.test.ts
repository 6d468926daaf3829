// ddedge zone against the sandbox: one test per row and rule of the contract's "Zone as code"
// section, and bad inputs users gave it. The built dist/ddedge.mjs runs export, plan and apply
// as a user does, the apply that is killed, and the secrets' scenarios; the other rules are the
// command's logic, run by main() in this process.
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseFault } from '../../../src/sandbox/faults.js';
import { withApi } from '../../helpers/agent-env.js';
import { baseEnv, CANARY, runDist, runMain, startDist, tempDir, waitForOutput } from '../../helpers/cli.js';
import { emptyZone, writeZone } from '../../helpers/zone.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const ZONE = 'zone.example';
const sandbox = useSandbox();
let stateDir: string;
beforeEach(async () => {
  stateDir = tempDir('ddedge-state-');
});

const env = (extra: Record<string, string> = {}) =>
  baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: stateDir, ...extra });
const zone = (name = ZONE) => sandbox.model.services.find((s) => s.name === name)!.dns;
const shown = (name = ZONE) =>
  zone(name)
    .map((e) => `${e.name} ${e.ttl} ${e.type} ${e.priority} ${e.value}`)
    .sort();
const writes = () =>
  [...sandbox.calls.entries()].filter(([k]) => k !== 'service/dnslist').reduce((n, [, v]) => n + v, 0);

/** A zone of `count` records: apex A and MX, then hosts h0.. */
function seed(count: number): void {
  const service = emptyZone(sandbox, ZONE);
  service.dns.push({ entityID: '1', name: ZONE, type: 'A', ttl: '-', priority: '-', value: '192.0.2.1' });
  service.dns.push({ entityID: '2', name: ZONE, type: 'MX', ttl: '3600', priority: '10', value: `mail.${ZONE}` });
  for (let i = 0; i < count - 2; i++)
    service.dns.push({
      entityID: String(10 + i),
      name: `h${i}.${ZONE}`,
      type: 'A',
      ttl: '-',
      priority: '-',
      value: `192.0.2.${10 + i}`,
    });
}
const fileFor = (lines: string[]) => writeZone(`$ORIGIN ${ZONE}.\n${lines.join('\n')}\n`);
const seededLines = (count: number) => [
  '@ A 192.0.2.1',
  '@ 3600 MX 10 mail',
  ...Array.from({ length: count - 2 }, (_, i) => `h${i} A 192.0.2.${10 + i}`),
];

describe('ddedge zone export', () => {
  it('writes an RFC 1035 master file: $ORIGIN, names relative to it, @ for the apex, no TTL for the default', async () => {
    seed(3);
    const run = await runDist(['zone', 'export', '--service', ZONE], env());
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines).toContain(`$ORIGIN ${ZONE}.`);
    expect(lines.map((l) => l.replace(/\s+/g, ' '))).toEqual(
      expect.arrayContaining(['@ IN A 192.0.2.1', `@ 3600 IN MX 10 mail.${ZONE}.`, 'h0 IN A 192.0.2.10']),
    );
  });

  it('--format json writes [{name, type, ttl, priority, value}]; --output writes a file', async () => {
    seed(3);
    const out = join(tempDir(), 'zone.json');
    const run = await runMain(['zone', 'export', '--service', ZONE, '--format', 'json', '--output', out], env());
    const records = JSON.parse(readFileSync(out, 'utf8'));
    // The zone went to the file: the terminal says where, and how much.
    expect(run).toMatchObject({ code: 0, stdout: `exported ${records.length} records of ${ZONE} to ${out}\n` });
    expect(records).toContainEqual({ name: ZONE, type: 'MX', ttl: 3600, priority: 10, value: `mail.${ZONE}` });
    expect(records).toContainEqual({ name: `h0.${ZONE}`, type: 'A', ttl: null, priority: null, value: '192.0.2.10' });
  });
});

describe('ddedge zone plan', () => {
  it('prints every create, update (old and new) and delete, and what it leaves alone and why; sends no change', async () => {
    seed(4);
    zone().push({
      entityID: '90',
      name: `_acme-challenge.${ZONE}`,
      type: 'TXT',
      ttl: '-',
      priority: '-',
      value: 'tok',
    });
    const file = fileFor(['@ A 192.0.2.1', '@ 600 MX 10 mail', 'h0 A 192.0.2.99', 'new CNAME @', 'h1 A 192.0.2.11']);
    sandbox.calls.clear();
    const run = await runDist(['zone', 'plan', file, '--host', `h1.${ZONE}`], env());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('1 to create, 2 to update, 0 to delete, 1 unchanged');
    expect(run.stdout).toMatch(/create +new IN CNAME zone\.example\./);
    expect(run.stdout).toMatch(
      /update +@ 600 IN MX 10 mail\.zone\.example\. +\(was @ 3600 IN MX 10 mail\.zone\.example\.\)/,
    );
    expect(run.stdout).toMatch(/update +h0 IN A 192\.0\.2\.99 +\(was h0 IN A 192\.0\.2\.10\)/);
    expect(run.stdout).toMatch(/keep +h1 A 192\.0\.2\.11 +\(one of the agent's hosts, DDEDGE_HOSTS or --host\)/);
    expect(run.stdout).toMatch(/keep +_acme-challenge TXT tok +\(an ACME challenge/);
    expect(Object.fromEntries(sandbox.calls)).toEqual({ 'service/dnslist': 1 });
  });

  it('reads the JSON form too (told apart by content), and --json prints the contract document', async () => {
    seed(3);
    const file = writeZone(
      JSON.stringify([
        { name: '@', type: 'A', ttl: null, priority: null, value: '192.0.2.1' },
        { name: `mail.${ZONE}`, type: 'A', value: '192.0.2.25' },
        { name: ZONE, type: 'MX', ttl: 3600, priority: 10, value: `mail.${ZONE}` },
      ]),
      'zone.anything',
    );
    const run = await runMain(['zone', 'plan', file, '--service', ZONE, '--json'], env());
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({
      service: ZONE,
      summary: { create: 1, update: 0, delete: 1, unchanged: 2 },
      kept: [],
    });
    expect(report.changes).toEqual([
      {
        action: 'delete',
        name: `h0.${ZONE}`,
        type: 'A',
        before: { name: `h0.${ZONE}`, type: 'A', ttl: null, priority: null, value: '192.0.2.10' },
        after: null,
      },
      {
        action: 'create',
        name: `mail.${ZONE}`,
        type: 'A',
        before: null,
        after: { name: `mail.${ZONE}`, type: 'A', ttl: null, priority: null, value: '192.0.2.25' },
      },
    ]);
  });

  it('SOA and apex NS in a file are left to the provider and reported; other types are an error unless --skip-unsupported', async () => {
    seed(3);
    const lines = [
      ...seededLines(3),
      '@ SOA ns1.example.net. h.example.net. 1 2 3 4 5',
      '@ NS ns1.example.net.',
      'ptr PTR host.example.net.',
    ];
    const refused = await runMain(['zone', 'plan', fileFor(lines)], env());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/zone\.txt:7:5: unknown or unsupported type "PTR"/);
    const run = await runMain(['zone', 'plan', fileFor(lines), '--skip-unsupported'], env());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/keep +@ SOA +\(in the file, left to the provider \(SOA\)\)/);
    expect(run.stdout).toMatch(/keep +@ NS +\(in the file, left to the provider \(apex NS\)\)/);
    expect(run.stdout).toMatch(/keep +ptr PTR +\(in the file, skipped/);
    expect(run.stdout).toContain('0 to create, 0 to update, 0 to delete, 3 unchanged');
  });
});

describe('ddedge zone apply', () => {
  it('backs the zone up, makes exactly the plan, reads it back; a second apply changes nothing', async () => {
    seed(4);
    const file = fileFor(['@ A 192.0.2.1', '@ 3600 MX 10 mail', 'h0 A 192.0.2.77', 'www CNAME @']);
    const before = shown();
    sandbox.calls.clear();
    const run = await runDist(['zone', 'apply', file], env());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/applied 3 changes .*the zone read back matches the file/);
    expect(Object.fromEntries(sandbox.calls)).toEqual({
      'service/dnslist': 2,
      'service/dnscreate': 1,
      'service/dnsupdate': 1,
      'service/dnsdelete': 1,
    });
    const backups = readdirSync(join(stateDir, 'zone-backups', ZONE));
    expect(backups).toHaveLength(1);
    expect(backups[0]).toMatch(/^\d{8}T\d{6}\.\d{3}Z\.zone$/);
    expect(run.stdout).toContain(`backup: ${join(stateDir, 'zone-backups', ZONE, backups[0]!)}`);

    sandbox.calls.clear();
    const again = await runDist(['zone', 'apply', file], env());
    expect(again.code).toBe(0);
    expect(writes()).toBe(0);
    expect(readdirSync(join(stateDir, 'zone-backups', ZONE))).toHaveLength(1);

    // Applying the backup restores the zone as it was.
    const restore = await runDist(['zone', 'apply', join(stateDir, 'zone-backups', ZONE, backups[0]!)], env());
    expect(restore.code, restore.stderr).toBe(0);
    expect(shown().map((l) => l.replace(/ \d+ /, ' '))).toEqual(before.map((l) => l.replace(/ \d+ /, ' ')));
  });

  it('keeps the last 20 backups', async () => {
    seed(3);
    const dir = join(stateDir, 'zone-backups', ZONE);
    for (let i = 0; i < 21; i++) {
      const { mkdirSync } = await import('node:fs');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `202001${String(i + 1).padStart(2, '0')}T000000.000Z.zone`), `; old ${i}\n`);
    }
    const run = await runMain(['zone', 'apply', fileFor([...seededLines(3), 'x A 192.0.2.5'])], env());
    expect(run.code, run.stderr).toBe(0);
    const left = readdirSync(dir).sort();
    expect(left).toHaveLength(20);
    expect(left[0]).toBe('20200103T000000.000Z.zone');
    expect(readFileSync(join(dir, left.at(-1)!), 'utf8')).toContain('h0 ');
  });

  it('--dry-run is the plan: nothing sent, no backup', async () => {
    seed(3);
    sandbox.calls.clear();
    const run = await runMain(
      ['zone', 'apply', fileFor(['@ A 192.0.2.1', '@ 3600 MX 10 mail', 'y A 192.0.2.6']), '--dry-run'],
      env(),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('1 to create, 0 to update, 1 to delete');
    expect(writes()).toBe(0);
    expect(existsSync(join(stateDir, 'zone-backups'))).toBe(false);
  });

  it('a drift left after the changes (a provider that answers OK and keeps nothing) is exit 7', async () => {
    seed(3);
    const proxy = await forwardTo(sandbox.url, (path) =>
      path === '/service/dnscreate/'
        ? JSON.stringify({
            success: true,
            errorCode: 0,
            errorCodeMsg: '',
            action: 'service/dnscreate',
            version: '1.0.26',
            messages: [],
            responseData: { dns: [] },
          })
        : undefined,
    );
    try {
      const run = await runMain(
        ['zone', 'apply', fileFor([...seededLines(3), 'lost A 192.0.2.9'])],
        env({ DDEDGE_API_URL: proxy.url }),
      );
      expect(run.code).toBe(7);
      expect(run.stderr).toMatch(/still differs from the file:\n +create +lost IN A 192\.0\.2\.9/);
    } finally {
      await proxy.close();
    }
  });
});

describe('ownership', () => {
  it("never touches the agent's hosts (DDEDGE_HOSTS) or _acme-challenge TXT; --ignore with wildcards and types; --keep-unlisted", async () => {
    seed(6);
    zone().push({
      entityID: '80',
      name: `_acme-challenge.www.${ZONE}`,
      type: 'TXT',
      ttl: '-',
      priority: '-',
      value: 'tok',
    });
    zone().push({ entityID: '81', name: `legacy-1.${ZONE}`, type: 'TXT', ttl: '-', priority: '-', value: 'old' });
    zone().push({ entityID: '82', name: `legacy-1.${ZONE}`, type: 'A', ttl: '-', priority: '-', value: '192.0.2.200' });
    const file = fileFor(['@ A 192.0.2.1', '@ 3600 MX 10 mail', 'h0 A 203.0.113.1', 'h2 A 192.0.2.12']);
    const run = await runMain(
      ['zone', 'apply', file, '--ignore', 'legacy-*:TXT', '--ignore', 'h3', '--json'],
      env({ DDEDGE_HOSTS: `h0.${ZONE},h1.${ZONE}` }),
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(
      report.kept.map((k: { name: string; type: string; reason: string }) => `${k.name} ${k.type}: ${k.reason}`).sort(),
    ).toEqual([
      `_acme-challenge.www.${ZONE} TXT: an ACME challenge (_acme-challenge TXT)`,
      `h0.${ZONE} A: in the file, not applied: one of the agent's hosts, DDEDGE_HOSTS or --host`,
      `h0.${ZONE} A: one of the agent's hosts, DDEDGE_HOSTS or --host`,
      `h1.${ZONE} A: one of the agent's hosts, DDEDGE_HOSTS or --host`,
      `h3.${ZONE} A: --ignore h3`,
      `legacy-1.${ZONE} TXT: --ignore legacy-*:TXT`,
    ]);
    expect(report.changes.map((c: { action: string; name: string }) => `${c.action} ${c.name}`)).toEqual([
      `delete legacy-1.${ZONE}`,
    ]);
    expect(shown()).toContain(`h0.${ZONE} - A - 192.0.2.10`);

    const keep = await runMain(
      [
        'zone',
        'apply',
        fileFor(['@ A 192.0.2.1', '@ 3600 MX 10 mail', 'h2 A 192.0.2.12', 'h2 A 192.0.2.13']),
        '--keep-unlisted',
        '--json',
      ],
      env(),
    );
    expect(keep.code, keep.stderr).toBe(0);
    expect(JSON.parse(keep.stdout).summary).toEqual({ create: 1, update: 0, delete: 0, unchanged: 3 });
  });
});

describe('safety', () => {
  it('with 10+ records, changing or deleting more than 30% stops with exit 2 and sends nothing; --force applies it', async () => {
    seed(12);
    const file = fileFor(seededLines(8)); // deletes 4 of 12: 33%
    sandbox.calls.clear();
    const run = await runMain(['zone', 'apply', file], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("it would change or delete 4 of the zone's 12 records (33%, more than 30%)");
    expect(writes()).toBe(0);
    expect(existsSync(join(stateDir, 'zone-backups'))).toBe(false);
    const forced = await runMain(['zone', 'apply', file, '--force'], env());
    expect(forced.code, forced.stderr).toBe(0);
    expect(zone()).toHaveLength(8);
    // 3 of 10 is within the rule.
    seed(10);
    expect((await runMain(['zone', 'apply', fileFor(seededLines(7))], env())).code).toBe(0);
  });

  it('changing the apex (a new address, the MX moved, a new SPF text) is ordinary work: no --force', async () => {
    seed(3);
    zone().push({ entityID: '3', name: ZONE, type: 'TXT', ttl: '-', priority: '-', value: 'v=spf1 mx -all' });
    const file = fileFor([
      '@ A 192.0.2.2',
      '@ 3600 MX 10 mail2',
      '@ TXT "v=spf1 mx include:_spf.example.net -all"',
      'h0 A 192.0.2.10',
    ]);
    const run = await runMain(['zone', 'apply', file, '--json'], env());
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ summary: { update: 3, delete: 0 } });
    expect(JSON.parse(run.stdout).needsForce).toBeUndefined();
    expect(shown()).toEqual(
      [
        `${ZONE} - A - 192.0.2.2`,
        `${ZONE} - TXT - v=spf1 mx include:_spf.example.net -all`,
        `${ZONE} 3600 MX 10 mail2.${ZONE}`,
        `h0.${ZONE} - A - 192.0.2.10`,
      ].sort(),
    );
  });

  it('deleting the last address or the last MX at the apex stops with exit 2 unless --force', async () => {
    seed(3);
    sandbox.calls.clear();
    const file = fileFor(['h0 A 192.0.2.10']);
    const run = await runMain(['zone', 'apply', file], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `it would delete every A/AAAA record at the apex (${ZONE}: 1); and it would delete every MX record at the apex (${ZONE}: 1)`,
    );
    expect(writes()).toBe(0);
    expect((await runMain(['zone', 'apply', file, '--force'], env())).code).toBe(0);
    expect(shown()).toEqual([`h0.${ZONE} - A - 192.0.2.10`]);
  });

  it("counts only what it may touch: leftover ACME challenges and the agent's hosts do not let a wrong file through", async () => {
    seed(12);
    for (let i = 0; i < 30; i++)
      zone().push({
        entityID: String(500 + i),
        name: `_acme-challenge.s${i}.${ZONE}`,
        type: 'TXT',
        ttl: '60',
        priority: '-',
        value: `token-${i}`,
      });
    for (let i = 0; i < 10; i++)
      zone().push({
        entityID: String(600 + i),
        name: `agent${i}.${ZONE}`,
        type: 'A',
        ttl: '-',
        priority: '-',
        value: '81.0.2.15',
      });
    const hosts = Array.from({ length: 10 }, (_, i) => `agent${i}.${ZONE}`).join(',');
    // 4 of the 12 records it may touch (33%), beside 40 it keeps (8% of all 52).
    const file = fileFor(seededLines(8));
    sandbox.calls.clear();
    const run = await runMain(['zone', 'apply', file], env({ DDEDGE_HOSTS: hosts }));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'it would change or delete 4 of the 12 records it may touch (33%, more than 30%; the 40 records it keeps are not counted)',
    );
    expect(writes()).toBe(0);
    // 3 of 12, with 200 new records: creates count for nothing.
    const grown = fileFor([...seededLines(9), ...Array.from({ length: 200 }, (_, i) => `new${i} A 198.51.100.${i}`)]);
    const passed = await runMain(['zone', 'apply', grown, '--json'], env({ DDEDGE_HOSTS: hosts }));
    expect(passed.code, passed.stderr).toBe(0);
    expect(JSON.parse(passed.stdout).summary).toMatchObject({ create: 200, delete: 3 });
  });
});

describe('bad input: exit 2 naming the line and the reason, nothing sent', () => {
  it.each([
    ['a syntax error', 'www A 192.0.2.1\nbad TXT "not closed\n', /zone\.txt:3:9: a quoted string is not closed/],
    ['an unknown type', 'www A 192.0.2.1\nwww FOO bar\n', /zone\.txt:3:5: unknown or unsupported type "FOO"/],
    [
      'a CNAME beside other data',
      'www A 192.0.2.1\nwww CNAME other.example.net.\n',
      /zone\.txt:3:5: a CNAME cannot share its name with other data/,
    ],
    [
      'a record outside the origin',
      'www A 192.0.2.1\nwww.example.org. A 192.0.2.2\n',
      /zone\.txt:3:18: www\.example\.org is outside the zone zone\.example/,
    ],
    ['a TTL out of range', 'www 2147483648 A 192.0.2.1\n', /zone\.txt:2:5: TTL "2147483648" is out of range/],
    [
      'an IPv6 address in an A record',
      'www A 192.0.2.1\nv6 A 2001:db8::1\n',
      /zone\.txt:3:6: "2001:db8::1" is not an IPv4 address/,
    ],
  ])('%s', async (_name, body, message) => {
    seed(3);
    sandbox.calls.clear();
    const run = await runMain(['zone', 'apply', writeZone(`$ORIGIN ${ZONE}.\n${body}`), '--force'], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(sandbox.calls.size).toBe(0);
  });

  it('an unwritable --output or state directory is exit 2, and apply changes nothing without its backup', async () => {
    seed(3);
    const out = await runMain(['zone', 'export', '--service', ZONE, '--output', '/nonexistent/dir/zone.txt'], env());
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--output: cannot write "/nonexistent/dir/zone.txt": no such file');
    const blocked = join(tempDir(), 'file');
    writeFileSync(blocked, '');
    sandbox.calls.clear();
    const run = await runMain(
      ['zone', 'apply', fileFor([...seededLines(3), 'x A 192.0.2.5'])],
      env({ DDEDGE_STATE_DIR: join(blocked, 'state') }),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot write the backup .*nothing was changed/);
    expect(writes()).toBe(0);
  });

  it('a bad --ignore, --format or missing file is exit 2', async () => {
    expect((await runMain(['zone', 'plan', fileFor([]), '--ignore', 'a:b:c'], env())).code).toBe(2);
    expect((await runMain(['zone', 'export', '--service', ZONE, '--format', 'yaml'], env())).code).toBe(2);
    expect((await runMain(['zone', 'plan', '/nonexistent/zone.txt', '--service', ZONE], env())).code).toBe(2);
  });
});

describe('a provider that refuses a change half-way', () => {
  it('stops with exit 7, lists what was done and what was not, names the backup', async () => {
    // example.net is on the redirection plan: 50 DNS entries at most (error 4003 past that).
    const lines = ['@ A 192.0.2.30', ...Array.from({ length: 55 }, (_, i) => `n${i} A 192.0.2.${i + 1}`)];
    const run = await runMain(
      ['zone', 'apply', writeZone(`$ORIGIN example.net.\n${lines.join('\n')}\n`), '--method', 'calls', '--json'],
      env(),
    );
    expect(run.code).toBe(7);
    const report = JSON.parse(run.stdout);
    expect(report.error).toMatch(/error 4003/);
    expect(report.done.length).toBe(49);
    expect(report.notDone.length).toBe(55 - 49);
    expect(report.backup).toMatch(/zone-backups\/example\.net\/\d{8}T\d{6}\.\d{3}Z\.zone$/);
    expect(existsSync(report.backup)).toBe(true);
    expect(zone('example.net')).toHaveLength(50);

    const text = await runMain(
      ['zone', 'apply', writeZone(`$ORIGIN example.net.\n${lines.join('\n')}\n`), '--method', 'calls'],
      env(),
    );
    expect(text.code).toBe(7);
    expect(text.stderr).toMatch(
      /stopped: the create of n\d+ IN A 192\.0\.2\.\d+ failed: service\/dnscreate failed with error 4003/,
    );
    expect(text.stderr).toMatch(/done \(0\):\nnot done \(6\):\n +create +n\d+ IN A/);
    expect(text.stderr).toMatch(/backup: .*example\.net/);
  });
});

describe('a kill during apply', () => {
  it("running apply again converges, and the first run's backup is still there", async () => {
    seed(3);
    sandbox.faults.push(parseFault('service/dnscreate=slow:150'));
    const lines = [...seededLines(3), ...Array.from({ length: 20 }, (_, i) => `k${i} A 192.0.2.${100 + i}`)];
    const file = fileFor(lines);
    const child = startDist(['zone', 'apply', file, '--method', 'calls'], env());
    await waitForOutput(child, 'stderr', (t) => (t.match(/created/g) ?? []).length >= 3);
    child.kill('SIGKILL');
    await child.result;
    const first = readdirSync(join(stateDir, 'zone-backups', ZONE));
    expect(first).toHaveLength(1);
    expect(zone().length).toBeLessThan(23);
    sandbox.faults.length = 0;
    const again = await runMain(['zone', 'apply', file], env());
    expect(again.code, again.stderr).toBe(0);
    expect(zone()).toHaveLength(23);
    expect(readdirSync(join(stateDir, 'zone-backups', ZONE))).toEqual(expect.arrayContaining(first));
    expect((await runMain(['zone', 'plan', file], env())).stdout).toContain(
      '0 to create, 0 to update, 0 to delete, 23 unchanged',
    );
  });
});

describe('calls', () => {
  it('never more than 3 in flight; N changes are at most N write calls; many in one dnssetzone', async () => {
    seed(3);
    sandbox.faults.push(parseFault('service/dnscreate=slow:40'));
    let inFlight = 0;
    let max = 0;
    const proxy = await forwardTo(sandbox.url, undefined, {
      start: () => (max = Math.max(max, ++inFlight)),
      end: () => inFlight--,
    });
    try {
      const lines = [...seededLines(3), ...Array.from({ length: 30 }, (_, i) => `c${i} A 192.0.2.${100 + i}`)];
      sandbox.calls.clear();
      const run = await runMain(
        ['zone', 'apply', fileFor(lines), '--method', 'calls'],
        env({ DDEDGE_API_URL: proxy.url }),
      );
      expect(run.code, run.stderr).toBe(0);
      expect(sandbox.calls.get('service/dnscreate')).toBe(30);
      expect(max).toBe(3);
      sandbox.faults.length = 0;
      // The records the plan leaves alone go back at their live values in the one dnssetzone.
      zone().push({
        entityID: '700',
        name: `_acme-challenge.${ZONE}`,
        type: 'TXT',
        ttl: '60',
        priority: '-',
        value: 'tok',
      });
      const many = [
        ...seededLines(3),
        'h0 A 203.0.113.9',
        ...Array.from({ length: 60 }, (_, i) => `m${i} TXT "v${i}"`),
      ];
      sandbox.calls.clear();
      const run2 = await runMain(
        ['zone', 'apply', fileFor(many), '--json', '--force'],
        env({ DDEDGE_API_URL: proxy.url, DDEDGE_HOSTS: `h0.${ZONE}` }),
      );
      expect(run2.code, run2.stderr).toBe(0);
      expect(JSON.parse(run2.stdout)).toMatchObject({
        method: 'setzone',
        calls: 1,
        summary: { create: 60, delete: 30 },
      });
      expect(writes()).toBe(1);
      expect(zone()).toHaveLength(64);
      expect(shown()).toEqual(
        expect.arrayContaining([
          `_acme-challenge.${ZONE} 60 TXT - tok`,
          `h0.${ZONE} - A - 192.0.2.10`,
          `${ZONE} 3600 MX 10 mail.${ZONE}`,
        ]),
      );
    } finally {
      await proxy.close();
    }
  });
});

describe('secrets', () => {
  it('the API password appears nowhere in export, plan, apply or their errors, at debug level', async () => {
    seed(3);
    sandbox.model.account.apiPassword = CANARY;
    const e = env({ DDEDGE_LOG_LEVEL: 'debug', DDEDGE_API_PASSWORD: CANARY });
    const runs = [
      await runDist(['zone', 'export', '--service', ZONE], e),
      await runDist(['zone', 'plan', fileFor(['x A 192.0.2.1']), '--json'], e),
      await runDist(['zone', 'apply', fileFor([...seededLines(3), 'x A 192.0.2.1'])], e),
      await runDist(['zone', 'apply', fileFor(['x A 192.0.2.1'])], e),
      await runDist(['zone', 'plan', fileFor(['x A 192.0.2.1'])], { ...e, DDEDGE_API_PASSWORD: `${CANARY}-wrong` }),
    ];
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 2, 3]);
    expect(runs[2]!.stderr).toContain('debug');
    for (const r of runs) expect(r.stdout + r.stderr).not.toContain(CANARY);
    for (const file of readdirSync(join(stateDir, 'zone-backups', ZONE)))
      expect(readFileSync(join(stateDir, 'zone-backups', ZONE, file), 'utf8')).not.toContain(CANARY);
  });
});

/** An HTTP proxy in front of the sandbox: counts requests in flight, and may answer some itself. */
async function forwardTo(
  target: string,
  answer?: (path: string) => string | undefined,
  hooks: { start?: () => void; end?: () => void } = {},
) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      hooks.start?.();
      try {
        const own = answer?.(req.url ?? '');
        if (own !== undefined) return void res.writeHead(200, { 'content-type': 'application/json' }).end(own);
        const upstream = await fetch(new URL(req.url ?? '/', target), {
          method: req.method,
          headers: { 'content-type': req.headers['content-type'] ?? '' },
          body: Buffer.concat(chunks),
        });
        res
          .writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/plain' })
          .end(await upstream.text());
      } finally {
        hooks.end?.();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
