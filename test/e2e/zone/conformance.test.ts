// The conformance suite, after dnscontrol's provider integration tests: groups of steps, each
// group from an empty zone in the sandbox; every step applies a wanted zone and must change
// something, and the plan that follows must change nothing. Every step's export must load in
// BIND's named-checkzone (with the SOA and NS the provider keeps prepended).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { withApi } from '../../helpers/agent-env.js';
import { tempDir } from '../../helpers/cli.js';
import { emptyZone, soaAndNs, writeZone, zoneMain } from '../../helpers/zone.js';
import { requireTool } from '../../helpers/programs.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const ZONE = 'conformance.example';
const checkzone = requireTool('named-checkzone', 'bind9-utils');
const sandbox = useSandbox({ per: 'file' });

interface Step {
  name: string;
  zone: string;
  /** Expected counts of the apply's plan. */
  expect?: Partial<Record<'create' | 'update' | 'delete', number>>;
  /** Entries the provider must then hold: "name type priority value" (priority "-" when none). */
  provider?: string[];
  args?: string[];
  /** Applied without --force: the safety rule must let it through. */
  unforced?: true;
  /** Without --force it must stop (exit 2, nothing changed) saying this; then --force applies it. */
  stops?: string;
  /** Before the step, the agent (`ddedge update` through the API) sets this host's A, with the group's state directory. */
  agentSets?: { host: string; address: string };
  /** Records reported as kept: "name type reason". */
  kept?: string[];
  /** Before the step, an ACME client leaves this many challenges in the zone (`_acme-challenge.s<i>`). */
  acmeLeftovers?: number;
}
interface Group {
  name: string;
  steps: Step[];
}

const txt = (n: number, c = 'x') => c.repeat(n);
const GROUPS: Group[] = [
  {
    name: 'A',
    steps: [
      { name: 'one A', zone: 'www A 192.0.2.1', expect: { create: 1 } },
      { name: 'a new value', zone: 'www A 192.0.2.2', expect: { update: 1 } },
      { name: 'a second A at the name', zone: 'www A 192.0.2.2\nwww A 192.0.2.3', expect: { create: 1 } },
      {
        name: 'a TTL on one of them',
        zone: 'www A 192.0.2.2\nwww 600 A 192.0.2.3',
        expect: { update: 1 },
        provider: ['www.conformance.example A - 192.0.2.3 600'],
      },
      { name: 'the TTL back to the default', zone: 'www A 192.0.2.2\nwww A 192.0.2.3', expect: { update: 1 } },
    ],
  },
  {
    name: 'AAAA',
    steps: [
      { name: 'one AAAA', zone: 'v6 AAAA 2001:db8::1', expect: { create: 1 } },
      {
        name: 'written long-hand, a new value',
        zone: 'v6 AAAA 2001:0DB8:0000:0000:0000:0000:0000:0002',
        expect: { update: 1 },
        provider: ['v6.conformance.example AAAA - 2001:db8::2'],
      },
    ],
  },
  {
    name: 'CNAME',
    steps: [
      { name: 'a CNAME', zone: 'alias CNAME target.example.net.', expect: { create: 1 } },
      {
        name: 'another target',
        zone: 'alias CNAME www',
        expect: { update: 1 },
        provider: ['alias.conformance.example CNAME - www.conformance.example'],
      },
      { name: 'CNAME to A at one name', zone: 'alias A 192.0.2.5', expect: { create: 1, delete: 1 } },
      { name: 'A to CNAME at one name', zone: 'alias CNAME @', expect: { create: 1, delete: 1 } },
    ],
  },
  {
    name: 'MX',
    steps: [
      {
        name: 'three MX with priorities',
        zone: '@ MX 10 mx1\n@ MX 20 mx2\n@ MX 30 mx3.example.net.',
        expect: { create: 3 },
        provider: ['conformance.example MX 20 mx2.conformance.example'],
      },
      {
        name: 'a TTL change on one of three',
        zone: '@ MX 10 mx1\n@ 300 MX 20 mx2\n@ MX 30 mx3.example.net.',
        expect: { update: 1, create: 0, delete: 0 },
      },
      {
        name: 'a priority change',
        zone: '@ MX 10 mx1\n@ 300 MX 25 mx2\n@ MX 30 mx3.example.net.',
        expect: { update: 1 },
        provider: ['conformance.example MX 25 mx2.conformance.example 300'],
      },
      { name: 'one less', zone: '@ MX 10 mx1\n@ 300 MX 25 mx2', expect: { delete: 1 } },
    ],
  },
  {
    name: 'TXT',
    steps: [
      { name: 'empty', zone: 'empty TXT ""', expect: { create: 1 }, provider: ['empty.conformance.example TXT - ""'] },
      { name: '254 bytes', zone: `long TXT "${txt(254)}"`, expect: { create: 1 } },
      { name: '255 bytes', zone: `long TXT "${txt(255)}"`, expect: { update: 1 } },
      {
        name: '256 bytes, in two strings',
        zone: `long TXT "${txt(255)}" "y"`,
        expect: { update: 1 },
        provider: [`long.conformance.example TXT - ${txt(255)}y`],
      },
      { name: '510 bytes', zone: `long TXT ( "${txt(255, 'a')}"\n  "${txt(255, 'b')}" )`, expect: { update: 1 } },
      {
        name: 'quotes, semicolons, backslashes',
        zone: 'odd TXT "say \\"hi\\"; a\\\\b; \\059 end"',
        expect: { create: 1, delete: 1 },
        provider: ['odd.conformance.example TXT - say "hi"; a\\b; ; end'],
      },
      {
        name: 'SPF and several at one name',
        zone: 'odd TXT "say \\"hi\\"; a\\\\b; \\059 end"\n@ TXT "v=spf1 include:_spf.example.net ~all"\n@ TXT "google-site-verification=abc"\n@ TXT "x=1"',
        expect: { create: 3 },
      },
      {
        name: 'one of several changed',
        zone: 'odd TXT "say \\"hi\\"; a\\\\b; \\059 end"\n@ TXT "v=spf1 include:_spf.example.net -all"\n@ TXT "google-site-verification=abc"\n@ TXT "x=1"',
        expect: { update: 1 },
      },
    ],
  },
  {
    name: 'SRV',
    steps: [
      {
        name: 'an SRV',
        zone: '_sip._tcp SRV 10 60 5060 sip.example.net.',
        expect: { create: 1 },
        provider: ['_sip._tcp.conformance.example SRV 10 60 5060 sip.example.net'],
      },
      { name: 'a TTL change', zone: '_sip._tcp 120 SRV 10 60 5060 sip.example.net.', expect: { update: 1 } },
      {
        name: 'a new port and a second target',
        zone: '_sip._tcp 120 SRV 10 60 5061 sip.example.net.\n_sip._tcp 120 SRV 20 0 5060 backup',
        expect: { update: 1, create: 1 },
      },
    ],
  },
  {
    name: 'CAA',
    steps: [
      {
        name: 'issue',
        zone: '@ CAA 0 issue "letsencrypt.org"',
        expect: { create: 1 },
        provider: ['conformance.example CAA - 0 issue "letsencrypt.org"'],
      },
      {
        name: 'spaces in the value',
        zone: '@ CAA 0 issue "letsencrypt.org"\n@ CAA 0 iodef "mailto:dns admin@example.com"',
        expect: { create: 1 },
        provider: ['conformance.example CAA - 0 iodef "mailto:dns admin@example.com"'],
      },
      {
        name: 'issuewild with parameters, critical flag',
        zone: '@ CAA 0 issue "letsencrypt.org"\n@ CAA 128 issuewild "ca.example.net; account=123"',
        expect: { update: 1 },
      },
    ],
  },
  {
    name: 'NS for a subdomain',
    steps: [
      { name: 'delegate', zone: 'sub NS ns1.example.net.\nsub NS ns2.example.net.', expect: { create: 2 } },
      { name: 'change one server', zone: 'sub NS ns1.example.net.\nsub NS ns3.example.net.', expect: { update: 1 } },
    ],
  },
  {
    name: 'the apex',
    steps: [
      {
        name: 'A, AAAA and TXT at @',
        zone: '@ A 192.0.2.10\n@ AAAA 2001:db8::10\n@ TXT "apex"',
        expect: { create: 3 },
      },
      {
        name: 'written as the absolute name',
        zone: 'conformance.example. A 192.0.2.11\nconformance.example. AAAA 2001:db8::10\n@ TXT "apex"',
        expect: { update: 1 },
      },
      {
        name: 'SOA and apex NS in the file are left to the provider',
        zone: '@ SOA ns1.example.net. h.example.net. 1 2 3 4 5\n@ NS ns1.example.net.\n@ A 192.0.2.12\n@ AAAA 2001:db8::10\n@ TXT "apex"',
        expect: { update: 1 },
      },
    ],
  },
  {
    name: 'wildcards',
    steps: [
      {
        name: 'a wildcard A',
        zone: '* A 192.0.2.20',
        expect: { create: 1 },
        provider: ['*.conformance.example A - 192.0.2.20'],
      },
      {
        name: 'a wildcard CNAME below a name',
        zone: '* A 192.0.2.20\n*.apps CNAME lb.example.net.',
        expect: { create: 1 },
      },
    ],
  },
  {
    name: 'IDN',
    steps: [
      {
        name: 'a Unicode name goes as punycode',
        zone: 'bücher A 192.0.2.30',
        expect: { create: 1 },
        provider: ['xn--bcher-kva.conformance.example A - 192.0.2.30'],
      },
      {
        name: 'the punycode name in the file is the same name',
        zone: 'xn--bcher-kva A 192.0.2.31',
        expect: { update: 1 },
      },
      {
        name: 'a Unicode CNAME target',
        zone: 'xn--bcher-kva A 192.0.2.31\nshop CNAME bücher',
        expect: { create: 1 },
        provider: ['shop.conformance.example CNAME - xn--bcher-kva.conformance.example'],
      },
    ],
  },
  {
    name: 'mixed case',
    steps: [
      {
        name: 'names in mixed case',
        zone: 'MiXeD A 192.0.2.40\nMail MX 10 MX.Example.NET.',
        expect: { create: 2 },
        provider: ['mixed.conformance.example A - 192.0.2.40', 'mail.conformance.example MX 10 mx.example.net'],
      },
      {
        name: 'another case is the same name; a new value',
        zone: 'mixed A 192.0.2.41\nMAIL MX 10 mx.example.net.',
        expect: { update: 1, create: 0, delete: 0 },
      },
    ],
  },
  {
    name: 'many types at one label',
    steps: [
      {
        name: 'A, AAAA, MX, TXT, CAA, NS-free label',
        zone: 'multi A 192.0.2.50\nmulti AAAA 2001:db8::50\nmulti MX 10 mx.example.net.\nmulti TXT "one"\nmulti TXT "two"\nmulti CAA 0 issue "letsencrypt.org"',
        expect: { create: 6 },
      },
      {
        name: 'one of each changed',
        zone: 'multi A 192.0.2.51\nmulti AAAA 2001:db8::51\nmulti MX 20 mx.example.net.\nmulti TXT "one"\nmulti TXT "three"\nmulti CAA 0 issue "pki.goog"',
        expect: { update: 5 },
      },
      {
        name: 'in one dnssetzone call',
        zone: 'multi A 192.0.2.52\nmulti AAAA 2001:db8::51\nmulti MX 20 mx.example.net.\nmulti TXT "one"',
        expect: { update: 1, delete: 2 },
        args: ['--method', 'setzone'],
      },
    ],
  },
  {
    // The rule counts what the plan may touch (kept records cannot make a large change look
    // small); ordinary apex edits pass.
    name: 'the safety rule',
    steps: [
      {
        name: 'twelve records, created without --force (creates count for nothing)',
        zone: `@ A 192.0.2.70\n@ AAAA 2001:db8::70\n@ MX 10 mx1\n@ MX 20 mx2\n@ TXT "v=spf1 mx -all"\n${hosts(7)}`,
        expect: { create: 12 },
        unforced: true,
      },
      {
        name: 'a new SPF text and an MX moved: ordinary work',
        zone: `@ A 192.0.2.70\n@ AAAA 2001:db8::70\n@ MX 10 mx1\n@ MX 20 mx3.example.net.\n@ TXT "v=spf1 mx include:_spf.example.net -all"\n${hosts(7)}`,
        expect: { update: 2 },
        unforced: true,
      },
      {
        name: 'one of two MX and the AAAA beside the A deleted: ordinary work',
        zone: `@ A 192.0.2.70\n@ MX 10 mx1\n@ TXT "v=spf1 mx include:_spf.example.net -all"\n${hosts(7)}`,
        expect: { delete: 2 },
        unforced: true,
      },
      {
        name: 'the last MX deleted stops; --force applies it',
        zone: `@ A 192.0.2.70\n@ TXT "v=spf1 -all"\n${hosts(7)}`,
        expect: { delete: 1, update: 1 },
        stops: 'it would delete every MX record at the apex (conformance.example: 1)',
      },
      {
        name: 'the last address deleted stops; --force applies it',
        zone: `@ TXT "v=spf1 -all"\n${hosts(7)}`,
        expect: { delete: 1 },
        stops: 'it would delete every A/AAAA record at the apex (conformance.example: 1)',
      },
      {
        name: '3 of the 8 records it may touch, beside 30 ACME challenges: a small zone is exempt from the 30%',
        zone: `@ TXT "v=spf1 -all"\n${hosts(4)}`,
        acmeLeftovers: 30,
        expect: { delete: 3 },
        unforced: true,
        kept: ['_acme-challenge.s0.conformance.example TXT an ACME challenge (_acme-challenge TXT)'],
      },
      {
        name: 'ten hosts more',
        zone: `@ TXT "v=spf1 -all"\n${hosts(14)}`,
        expect: { create: 10 },
        unforced: true,
      },
      {
        name: '5 of the 15 records it may touch changed, beside the 30 challenges, stops; --force applies it',
        zone: `@ TXT "v=spf1 -all"\n${hosts(14).replace(/192\.0\.2\.([0-4])$/gm, '198.51.100.$1')}`,
        expect: { update: 5 },
        stops:
          'it would change or delete 5 of the 15 records it may touch (33%, more than 30%; the 30 records it keeps are not counted)',
      },
      {
        name: 'every record it may touch deleted stops, though it keeps the challenges; --force applies it',
        zone: '',
        expect: { delete: 15 },
        stops: 'it would delete every record of the zone that it may touch (15; the 30 records it keeps stay)',
      },
    ],
  },
  {
    // zone apply with the agent's state directory keeps the agent's records, with no --host: the
    // zone file and the agent must not undo each other.
    name: "the agent's hosts, known from its state",
    steps: [
      { name: 'a zone', zone: '@ A 192.0.2.80\nwww CNAME @', expect: { create: 2 } },
      {
        name: 'the agent adds its host; a file without it changes something else and keeps it',
        agentSets: { host: 'home.conformance.example', address: '81.0.2.15' },
        zone: '@ A 192.0.2.81\nwww CNAME @',
        expect: { update: 1, delete: 0 },
        unforced: true,
        provider: ['home.conformance.example A - 81.0.2.15'],
        kept: ["home.conformance.example A one of the agent's hosts, recorded in STATE"],
      },
      {
        name: "a file with the host's old address does not revert it",
        agentSets: { host: 'home.conformance.example', address: '81.0.2.16' },
        zone: '@ A 192.0.2.81\nwww CNAME @\nhome A 192.0.2.99\nmail A 192.0.2.82',
        expect: { create: 1, update: 0 },
        unforced: true,
        provider: ['home.conformance.example A - 81.0.2.16'],
        kept: ["home.conformance.example A in the file, not applied: one of the agent's hosts, recorded in STATE"],
      },
    ],
  },
];

function hosts(count: number): string {
  return Array.from({ length: count }, (_, i) => `h${i} A 192.0.2.${i}`).join('\n');
}

/** `ddedge update` in this process, through the API, for one host with the given state directory. */
async function agentSets(host: string, address: string, stateDir: string): Promise<void> {
  const out = { stdout: '', stderr: '' };
  const env = {
    ...withApi(sandbox),
    HOME: tempDir('ddedge-home-'),
    DDEDGE_STATE_DIR: stateDir,
    DDEDGE_HOSTS: host,
    DDEDGE_IP: address,
    DDEDGE_VIA: 'api',
  };
  const code = await main(['update'], {
    stdout: (t) => {
      out.stdout += t;
    },
    stderr: (t) => {
      out.stderr += t;
    },
    env,
    cwd: tempDir('ddedge-cwd-'),
    isTTY: false,
  });
  expect(code, out.stderr).toBe(0);
  expect(out.stdout).toContain(`${host} A ${address} updated`);
}

async function checkExport(): Promise<void> {
  const exported = await zoneMain(sandbox, ['export', '--service', ZONE]);
  expect(exported.code, exported.stderr).toBe(0);
  if (!checkzone) return;
  const file = writeZone(soaAndNs(ZONE) + exported.stdout);
  const { stdout } = await promisify(execFile)(checkzone, [ZONE, file]).catch(
    (error: { stdout: string; stderr: string }) => {
      throw new Error(
        `named-checkzone refused the export:\n${error.stdout}${error.stderr}\n${readFileSync(file, 'utf8')}`,
      );
    },
  );
  expect(stdout).toContain('OK');
}

const entries = () => sandbox.model.services.find((s) => s.name === ZONE)!.dns;

/** What ACME clients leave behind on their own: challenges ddedge's plans keep and must not count. */
function leaveChallenges(count: number): void {
  for (let i = 0; i < count; i++)
    entries().push({
      entityID: String(70_000 + i),
      name: `_acme-challenge.s${i}.${ZONE}`,
      type: 'TXT',
      ttl: '60',
      priority: '-',
      value: `token-${i}`,
    });
}
const shown = () =>
  entries().map((e) => `${e.name} ${e.type} ${e.priority} ${e.value}${e.ttl === '-' ? '' : ` ${e.ttl}`}`);

describe.each(GROUPS)('conformance: $name', (group) => {
  it('every step changes something; the plan after it changes nothing; the export loads in named-checkzone', async () => {
    emptyZone(sandbox, ZONE);
    const stateDir = tempDir('ddedge-state-');
    const env = { DDEDGE_SERVICE: ZONE, DDEDGE_STATE_DIR: stateDir };
    for (const step of group.steps) {
      if (step.agentSets) await agentSets(step.agentSets.host, step.agentSets.address, stateDir);
      if (step.acmeLeftovers) leaveChallenges(step.acmeLeftovers);
      const file = writeZone(`$ORIGIN ${ZONE}.\n${step.zone}\n`);
      if (step.stops) {
        const before = shown();
        const stopped = await zoneMain(sandbox, ['apply', file, ...(step.args ?? [])], env);
        expect(stopped.code, `${step.name}: ${stopped.stderr}`).toBe(2);
        expect(stopped.stderr, step.name).toContain(step.stops);
        expect(shown(), `${step.name}: changed without --force`).toEqual(before);
      }
      const applied = await zoneMain(
        sandbox,
        ['apply', file, ...(step.unforced ? [] : ['--force']), '--json', ...(step.args ?? [])],
        env,
      );
      expect(applied.code, `${step.name}: ${applied.stderr}`).toBe(0);
      const report = JSON.parse(applied.stdout);
      for (const kept of step.kept ?? []) {
        expect(
          report.kept.map((k: { name: string; type: string; reason: string }) => `${k.name} ${k.type} ${k.reason}`),
          step.name,
        ).toContain(kept.replace('STATE', join(stateDir, 'state.json')));
      }
      expect(report.changes.length, `${step.name} changed nothing`).toBeGreaterThan(0);
      expect(report.summary, step.name).toMatchObject(step.expect ?? {});
      expect(report.drift, step.name).toEqual([]);
      const again = await zoneMain(sandbox, ['plan', file, '--json'], env);
      expect(JSON.parse(again.stdout).changes, `${step.name}: the second plan`).toEqual([]);
      for (const entry of step.provider ?? []) expect(shown(), step.name).toContain(entry);
      await checkExport();
    }
  });
});

describe('conformance: a zone of 2,500 records', () => {
  it('is created, planned over three pages of service/dnslist, and changed past the first 1,000', async () => {
    emptyZone(sandbox, ZONE);
    const env = { DDEDGE_SERVICE: ZONE, DDEDGE_STATE_DIR: tempDir('ddedge-state-') };
    const lines = Array.from({ length: 2500 }, (_, i) =>
      i % 5 === 4 ? `h${i} TXT "record ${i}"` : `h${i} A 198.51.${Math.floor(i / 250)}.${i % 250}`,
    );
    const file = writeZone(`$ORIGIN ${ZONE}.\n${lines.join('\n')}\n`);
    const created = await zoneMain(sandbox, ['apply', file, '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ method: 'setzone', calls: 1, summary: { create: 2500 } });
    expect(entries()).toHaveLength(2500);

    sandbox.calls.clear();
    const planned = await zoneMain(sandbox, ['plan', file, '--json'], env);
    expect(JSON.parse(planned.stdout).changes).toEqual([]);
    expect(Object.fromEntries(sandbox.calls)).toEqual({ 'service/dnslist': 3 });

    const changed = lines
      .map((l, i) => (i >= 2000 && i < 2010 ? l.replace(/^(h\d+) /, '$1 900 ') : l))
      .filter((_, i) => i !== 2400);
    const file2 = writeZone(`$ORIGIN ${ZONE}.\n${changed.join('\n')}\n`);
    sandbox.calls.clear();
    const updated = await zoneMain(sandbox, ['apply', file2, '--json'], env);
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({
      method: 'calls',
      summary: { update: 10, delete: 1, create: 0 },
    });
    expect(sandbox.calls.get('service/dnsupdate')).toBe(10);
    expect(entries().find((e) => e.name === `h2005.${ZONE}`)!.ttl).toBe('900');
    expect(JSON.parse((await zoneMain(sandbox, ['plan', file2, '--json'], env)).stdout).changes).toEqual([]);
    await checkExport();
  });
});

describe('conformance: deleting everything but the kept records, then restoring the backup', () => {
  it('keeps the agent host and the ACME challenge, and the backup brings the rest back', async () => {
    const service = emptyZone(sandbox, ZONE);
    const env = { DDEDGE_SERVICE: ZONE, DDEDGE_STATE_DIR: tempDir('ddedge-state-'), DDEDGE_HOSTS: `home.${ZONE}` };
    const full = writeZone(
      `$ORIGIN ${ZONE}.\n@ A 192.0.2.60\nwww CNAME @\n@ MX 10 mx.example.net.\n@ TXT "v=spf1 mx -all"\n_sip._tcp SRV 0 5 5060 sip.example.net.\n`,
    );
    expect((await zoneMain(sandbox, ['apply', full, '--force'], env)).code).toBe(0);
    // What the agent and an ACME client put there on their own.
    service.dns.push({
      entityID: '9001',
      name: `home.${ZONE}`,
      type: 'A',
      ttl: '-',
      priority: '-',
      value: '81.0.2.15',
    });
    service.dns.push({
      entityID: '9002',
      name: `_acme-challenge.${ZONE}`,
      type: 'TXT',
      ttl: '60',
      priority: '-',
      value: 'token-1',
    });

    const empty = writeZone(`$ORIGIN ${ZONE}.\n`);
    const wiped = await zoneMain(sandbox, ['apply', empty, '--force', '--json'], env);
    expect(wiped.code, wiped.stderr).toBe(0);
    const report = JSON.parse(wiped.stdout);
    expect(report.summary).toMatchObject({ delete: 5 });
    expect(report.kept).toEqual(
      expect.arrayContaining([
        { name: `home.${ZONE}`, type: 'A', reason: "one of the agent's hosts, DDEDGE_HOSTS or --host" },
        { name: `_acme-challenge.${ZONE}`, type: 'TXT', reason: 'an ACME challenge (_acme-challenge TXT)' },
      ]),
    );
    expect(shown().sort()).toEqual([`_acme-challenge.${ZONE} TXT - token-1 60`, `home.${ZONE} A - 81.0.2.15`]);
    await checkExport();

    const restored = await zoneMain(sandbox, ['apply', report.backup, '--force', '--json'], env);
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout).summary).toMatchObject({ create: 5, delete: 0 });
    expect(JSON.parse((await zoneMain(sandbox, ['plan', full, '--json'], env)).stdout).changes).toEqual([]);
    expect(shown()).toHaveLength(7);
  });
});

/** Entries the provider accepts and a master file cannot hold: "name type ttl priority value". */
const UNWRITABLE = [
  [`alias.${ZONE}`, 'CNAME', '-', '-', '*.example.net'],
  [ZONE, 'MX', '-', '20', '*.mx.example.net'],
  [`long.${ZONE}`, 'CNAME', '-', '-', `${Array.from({ length: 4 }, (_, i) => `${i}${'t'.repeat(62)}`).join('.')}.net`],
  [ZONE, 'CAA', '-', '-', '0 issue "ca"quoted"'],
  [`dup.${ZONE}`, 'A', '600', '-', '192.0.2.70'],
] as const;
const shownExactly = () =>
  entries()
    .map((e) => `${e.name} ${e.type} ${e.ttl} ${e.priority} ${e.value}`)
    .sort();

describe('conformance: round trip of records a master file cannot hold', () => {
  it('export, then apply of that file, changes nothing: each is kept with its reason; a change beside them is made', async () => {
    const service = emptyZone(sandbox, ZONE);
    const env = { DDEDGE_SERVICE: ZONE, DDEDGE_STATE_DIR: tempDir('ddedge-state-') };
    expect(
      (await zoneMain(sandbox, ['apply', writeZone(`$ORIGIN ${ZONE}.\n@ A 192.0.2.1\ndup 300 A 192.0.2.70\n`)], env))
        .code,
    ).toBe(0);
    UNWRITABLE.forEach(([name, type, ttl, priority, value], i) => {
      service.dns.push({ entityID: String(8000 + i), name, type, ttl, priority, value });
    });
    const before = shownExactly();

    const exported = await zoneMain(sandbox, ['export'], env);
    expect(exported.code, exported.stderr).toBe(0);
    const file = writeZone(exported.stdout);
    const applied = await zoneMain(sandbox, ['apply', file, '--json'], env);
    expect(applied.code, applied.stderr).toBe(0);
    const report = JSON.parse(applied.stdout);
    expect(report.changes).toEqual([]);
    expect(
      report.kept.filter((k: { reason: string }) => k.reason.startsWith('cannot be written in a master file: ')),
    ).toHaveLength(UNWRITABLE.length);
    expect(shownExactly()).toEqual(before);
    await checkExport();

    // A change through the exported file: made, and the kept records are still as they were.
    const changed = writeZone(exported.stdout.replace(/^(@\s+IN A\s+)192\.0\.2\.1$/m, '$1192.0.2.2'));
    const step = await zoneMain(sandbox, ['apply', changed, '--json', '--force'], env);
    expect(step.code, step.stderr).toBe(0);
    expect(JSON.parse(step.stdout).summary).toMatchObject({ update: 1, create: 0, delete: 0 });
    expect(JSON.parse((await zoneMain(sandbox, ['plan', changed, '--json'], env)).stdout).changes).toEqual([]);
    expect(shownExactly()).toEqual(
      before.map((l) => l.replace(`${ZONE} A - - 192.0.2.1`, `${ZONE} A - - 192.0.2.2`)).sort(),
    );
  });
});

describe('conformance: restore of a backup with kept records', () => {
  it('after the zone was emptied and the kept records deleted by hand, the backup brings every entry back as it was', async () => {
    const service = emptyZone(sandbox, ZONE);
    const env = { DDEDGE_SERVICE: ZONE, DDEDGE_STATE_DIR: tempDir('ddedge-state-') };
    expect(
      (
        await zoneMain(
          sandbox,
          ['apply', writeZone(`$ORIGIN ${ZONE}.\n@ A 192.0.2.1\n@ MX 10 mx.example.net.\ndup 300 A 192.0.2.70\n`)],
          env,
        )
      ).code,
    ).toBe(0);
    UNWRITABLE.forEach(([name, type, ttl, priority, value], i) => {
      service.dns.push({ entityID: String(8100 + i), name, type, ttl, priority, value });
    });
    const before = shownExactly();

    const wiped = await zoneMain(sandbox, ['apply', writeZone(`$ORIGIN ${ZONE}.\n`), '--force', '--json'], env);
    expect(wiped.code, wiped.stderr).toBe(0);
    const { backup } = JSON.parse(wiped.stdout);
    // The empty file cannot name them: they are kept (but the second entry of a record the file
    // dropped goes with it). Then someone deletes them by hand.
    expect(shownExactly()).toHaveLength(UNWRITABLE.length - 1);
    service.dns.length = 0;

    const restored = await zoneMain(sandbox, ['apply', backup, '--force', '--json'], env);
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout).summary).toMatchObject({ create: before.length, update: 0, delete: 0 });
    expect(shownExactly()).toEqual(before);
    expect(JSON.parse((await zoneMain(sandbox, ['plan', backup, '--json'], env)).stdout).changes).toEqual([]);
    await checkExport();
  });
});
