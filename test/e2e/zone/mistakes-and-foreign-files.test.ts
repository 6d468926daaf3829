// ddedge zone used as a newcomer uses it, and attacked: files written by other tools and
// editors, mistakes, and plans that only the provider would have refused half-way. Each test
// pins a way a user once got a wrong or unclear result; the built dist/ddedge.mjs against the
// sandbox.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { withApi } from '../../helpers/agent-env.js';
import { parseFault } from '../../../src/sandbox/faults.js';
import { baseEnv, HANG_BOUND_MS, startDist, tempDir, waitForOutput, type RunResult } from '../../helpers/cli.js';
import { emptyZone, writeZone } from '../../helpers/zone.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const ZONE = 'zone.example';
const sandbox = useSandbox();
let stateDir: string;
beforeEach(async () => {
  stateDir = tempDir('ddedge-state-');
  const service = emptyZone(sandbox, ZONE);
  service.dns.push({ entityID: '1', name: ZONE, type: 'A', ttl: '-', priority: '-', value: '192.0.2.1' });
  service.dns.push({ entityID: '2', name: `home.${ZONE}`, type: 'A', ttl: '-', priority: '-', value: '192.0.2.20' });
  service.dns.push({
    entityID: '3',
    name: `_acme-challenge.${ZONE}`,
    type: 'TXT',
    ttl: '-',
    priority: '-',
    value: 'token',
  });
});

const env = (extra: Record<string, string> = {}) =>
  baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: stateDir, ...extra });
const writes = () =>
  [...sandbox.calls.entries()].filter(([k]) => k !== 'service/dnslist').reduce((n, [, v]) => n + v, 0);
const LIVE = ['@ A 192.0.2.1', 'home A 192.0.2.20'];

/**
 * The built file, killed if it runs for more than `ms` (a hang is a finding, not a stuck suite).
 * A process of its own, so that even a loop that never yields is stopped.
 */
async function bounded(
  args: string[],
  extra: Record<string, string> = {},
  ms = HANG_BOUND_MS,
): Promise<RunResult & { hung: boolean }> {
  const child = startDist(args, env(extra));
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    child.kill('SIGKILL');
  }, ms);
  const result = await child.result;
  clearTimeout(timer);
  return { ...result, hung };
}

describe('files from editors and other tools', () => {
  it('a byte order mark (Windows editors) is read as the start of the file, in either form', async () => {
    const bom = '\uFEFF';
    const master = await bounded(['zone', 'plan', writeZone(`${bom}$ORIGIN ${ZONE}.\n${LIVE.join('\n')}\n`)]);
    expect(master.hung).toBe(false);
    expect(master.code, master.stderr).toBe(0);
    expect(master.stdout).toContain('0 to create, 0 to update, 0 to delete, 2 unchanged');
    const json = await bounded([
      'zone',
      'plan',
      '--service',
      ZONE,
      writeZone(
        `${bom}[{"name":"@","type":"A","ttl":null,"priority":null,"value":"192.0.2.1"},{"name":"home","type":"A","ttl":null,"priority":null,"value":"192.0.2.20"}]`,
      ),
    ]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).toContain('2 unchanged');
  });

  it.each([
    ['a no-break space pasted from a web page', 'www\u00A0IN A 192.0.2.5', /zone\.txt:4:4: unexpected U\+00A0/],
    ['a form feed', 'www IN A 192.0.2.5\f', /zone\.txt:4:19: unexpected U\+000C/],
    ['a zero-width no-break space inside the file', 'www IN A \uFEFF192.0.2.5', /zone\.txt:4:10: unexpected U\+FEFF/],
  ])('%s is exit 2 naming line and column, not a hang', async (_name, line, message) => {
    sandbox.calls.clear();
    const run = await bounded(['zone', 'plan', writeZone(`$ORIGIN ${ZONE}.\n${LIVE.join('\n')}\n${line}\n`)]);
    expect(run.hung).toBe(false);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(sandbox.calls.size).toBe(0);
  });
});

describe('a plan the provider would refuse half-way is refused before anything is sent', () => {
  it.each([
    [
      "a CNAME at the agent's host",
      ['@ A 192.0.2.1', 'home CNAME elsewhere.example.net.'],
      { DDEDGE_HOSTS: `home.${ZONE}` },
      [],
      /zone\.txt:3:6: a CNAME cannot share its name with other data: home\.zone\.example keeps A 192\.0\.2\.20 \(one of the agent's hosts, DDEDGE_HOSTS or --host\)/,
    ],
    [
      'a CNAME at an ACME challenge (delegated _acme-challenge)',
      [...LIVE, '_acme-challenge CNAME acme.example.net.'],
      {},
      [],
      /zone\.txt:4:17: a CNAME cannot share its name with other data: _acme-challenge\.zone\.example keeps TXT token \(an ACME challenge/,
    ],
    [
      'data beside an --ignore-d CNAME',
      ['@ A 192.0.2.1', 'home TXT "note"'],
      {},
      ['--ignore', 'home:CNAME'],
      /zone\.txt:3:6: a CNAME cannot share its name with other data: home\.zone\.example keeps CNAME elsewhere\.example\.net \(--ignore home:CNAME\)/,
    ],
    [
      'a CNAME where --keep-unlisted keeps data',
      ['@ A 192.0.2.1', 'home CNAME elsewhere.example.net.'],
      {},
      ['--keep-unlisted'],
      /zone\.txt:3:6: a CNAME cannot share its name with other data: home\.zone\.example keeps A 192\.0\.2\.20 \(not in the file/,
    ],
  ])('%s: exit 2 naming the line, nothing sent, no backup', async (name, lines, extraEnv, flags, message) => {
    if (String(name).startsWith('data beside')) {
      const dns = sandbox.model.services.find((s) => s.name === ZONE)!.dns;
      dns.splice(
        dns.findIndex((e) => e.name === `home.${ZONE}`),
        1,
        { entityID: '2', name: `home.${ZONE}`, type: 'CNAME', ttl: '-', priority: '-', value: 'elsewhere.example.net' },
      );
    }
    const file = writeZone(`$ORIGIN ${ZONE}.\n${lines.join('\n')}\n`);
    for (const action of ['plan', 'apply']) {
      sandbox.calls.clear();
      const run = await bounded(['zone', action, file, ...flags], extraEnv);
      expect(run.code, `${action}: ${run.stdout}${run.stderr}`).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(writes()).toBe(0);
    }
    expect(existsSync(join(stateDir, 'zone-backups'))).toBe(false);
  });
});

describe('ownership of names written in Unicode', () => {
  it('--ignore with an IDN name (or a pattern) leaves the punycode record the provider holds alone', async () => {
    const dns = sandbox.model.services.find((s) => s.name === ZONE)!.dns;
    dns.push({ entityID: '4', name: `xn--bcher-kva.${ZONE}`, type: 'A', ttl: '-', priority: '-', value: '192.0.2.78' });
    dns.push({
      entityID: '5',
      name: `shop.xn--bcher-kva.${ZONE}`,
      type: 'A',
      ttl: '-',
      priority: '-',
      value: '192.0.2.79',
    });
    const file = writeZone(`$ORIGIN ${ZONE}.\n${LIVE.join('\n')}\n`);
    for (const ignore of [
      ['--ignore', 'Bücher', '--ignore', '*.bücher'],
      ['--ignore', `bücher.${ZONE}.`, '--ignore', 'shop.BÜCHER:A'],
    ]) {
      const run = await bounded(['zone', 'plan', file, '--json', ...ignore]);
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout);
      expect(report.changes).toEqual([]);
      expect(report.kept.map((k: { name: string }) => k.name)).toEqual(
        expect.arrayContaining([`xn--bcher-kva.${ZONE}`, `shop.xn--bcher-kva.${ZONE}`]),
      );
    }
    const mixed = await bounded(['zone', 'plan', file, '--ignore', 'bü*']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(
      /--ignore: "bü\*": a pattern with \* is matched against the names the provider keeps: write its Unicode labels in punycode \(xn--\.\.\.\)/,
    );
  });
});

describe('a name that already ends with the zone, written without its trailing dot', () => {
  it.each([
    [
      '$ORIGIN',
      `$ORIGIN ${ZONE}\n${LIVE.join('\n')}\n`,
      /zone\.txt:1:9: "zone\.example" has no trailing dot, so it means zone\.example\.zone\.example; write "zone\.example\."/,
    ],
    [
      'an owner',
      `$ORIGIN ${ZONE}.\n${LIVE.join('\n')}\nwww.${ZONE} A 192.0.2.5\n`,
      /zone\.txt:4:1: "www\.zone\.example" has no trailing dot, so it means www\.zone\.example\.zone\.example; write "www\.zone\.example\." \(or "www"\)/,
    ],
    [
      'a CNAME target',
      `$ORIGIN ${ZONE}.\n${LIVE.join('\n')}\nwww CNAME home.${ZONE}\n`,
      /zone\.txt:4:11: "home\.zone\.example" has no trailing dot/,
    ],
    [
      'an MX exchange',
      `$ORIGIN ${ZONE}.\n${LIVE.join('\n')}\n@ MX 10 mail.${ZONE}\n`,
      /zone\.txt:4:9: "mail\.zone\.example" has no trailing dot/,
    ],
    [
      'an SRV target',
      `$ORIGIN ${ZONE}.\n${LIVE.join('\n')}\n_sip._tcp SRV 0 5 5060 sip.${ZONE}\n`,
      /zone\.txt:4:24: "sip\.zone\.example" has no trailing dot/,
    ],
  ])('in %s is exit 2 naming the line, not a plan that moves the zone under itself', async (_name, text, message) => {
    sandbox.calls.clear();
    const run = await bounded(['zone', 'plan', writeZone(text)]);
    expect(run.code, run.stdout).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(sandbox.calls.size).toBe(0);
  });

  it('the same names with their dot, relative or under $ORIGIN are read as before', async () => {
    const text = `$ORIGIN ${ZONE}.\n${LIVE.join('\n')}\nwww.${ZONE}. CNAME home\nmail A 192.0.2.6\n@ MX 10 mail.${ZONE}.\n$ORIGIN sub\nx A 192.0.2.7\n`;
    const run = await bounded(['zone', 'plan', '--json', writeZone(text)]);
    expect(run.code, run.stderr).toBe(0);
    const changes = JSON.parse(run.stdout)
      .changes.map((c: { name: string; type: string }) => `${c.name} ${c.type}`)
      .sort();
    expect(changes).toEqual([`mail.${ZONE} A`, `www.${ZONE} CNAME`, `x.sub.${ZONE} A`, `${ZONE} MX`].sort());
  });
});

describe('a listing that shows one entry twice (the zone changed between pages)', () => {
  it('is exit 4 before any change: the plan would delete, by its entity ID, the record the file keeps', async () => {
    const entry = { entityID: '7', name: ZONE, type: 'A', ttl: '-', priority: '-', value: '192.0.2.1' };
    const other = { entityID: '8', name: `home.${ZONE}`, type: 'A', ttl: '-', priority: '-', value: '192.0.2.20' };
    const writesSeen: string[] = [];
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const action = (req.url ?? '').split('/').filter(Boolean).join('/');
        if (action !== 'service/dnslist') writesSeen.push(action);
        // Page 1 and page 2 overlap: an entry deleted elsewhere meanwhile moved entity 7 across the page border.
        const dns = action === 'service/dnslist' ? [entry, other, entry] : [];
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            success: true,
            errorCode: 0,
            errorCodeMsg: '',
            action,
            version: '1.0.26',
            messages: [],
            responseData: { queryInfo: { page: 1, pageLength: 1000, results: dns.length, total: dns.length }, dns },
          }),
        );
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const run = await bounded(
        [
          'zone',
          'apply',
          '--force',
          writeZone(`$ORIGIN ${ZONE}.
${LIVE.join('\n')}\n`),
        ],
        { DDEDGE_API_URL: url },
      );
      expect(run.code, run.stdout + run.stderr).toBe(4);
      expect(run.stderr).toMatch(/service\/dnslist listed entity 7 twice/);
      expect(writesSeen).toEqual([]);
      expect(existsSync(join(stateDir, 'zone-backups'))).toBe(false);
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });
});

describe('values and names the provider holds that no master file can', () => {
  it('a line break or escape sequence in an answer never becomes a record of the export or backup, nor reaches the terminal raw', async () => {
    const dns = sandbox.model.services.find((s) => s.name === ZONE)!.dns;
    dns.push({
      entityID: '90',
      name: `a.${ZONE}`,
      type: 'A',
      ttl: '-',
      priority: '-',
      value: '192.0.2.9\nevil 60 IN NS ns.attacker.example.',
    });
    dns.push({
      entityID: '91',
      name: `b.${ZONE}`,
      type: 'PTR',
      ttl: '-',
      priority: '-',
      value: 'x\nevil2 A 203.0.113.66',
    });
    dns.push({ entityID: '92', name: `c.${ZONE}`, type: 'CNAME', ttl: '-', priority: '-', value: 'x\u001b[2Jy' });
    dns.push({
      entityID: '93',
      name: `d\nevil3 A 203.0.113.67\n.${ZONE}`,
      type: 'TXT',
      ttl: '-',
      priority: '-',
      value: 'x',
    });
    dns.push({ entityID: '94', name: 'www.example.org', type: 'A', ttl: '-', priority: '-', value: '192.0.2.94' });
    const exported = await bounded(['zone', 'export', '--service', ZONE]);
    expect(exported.code, exported.stderr).toBe(0);
    const raw = /[\u0000-\u0008\u000b-\u001f\u007f]/;
    const check = (text: string) => {
      expect(text).not.toMatch(raw);
      for (const line of text.split('\n')) expect(line).not.toMatch(/^evil/);
    };
    check(exported.stdout);
    expect(exported.stdout).toMatch(
      /^; kept, cannot be written in a master file: .*: a IN A "192\.0\.2\.9\\010evil 60 IN NS ns\.attacker\.example\."$/m,
    );
    expect(exported.stdout).toMatch(
      /^; kept, cannot be written in a master file: its name is outside the zone zone\.example: www\.example\.org\. IN A "192\.0\.2\.94"$/m,
    );

    // The export is a file ddedge reads back: the garbage is not in it as records, and the plan
    // keeps it (exporting and then applying must change nothing).
    const plan = await bounded(['zone', 'plan', '--json', writeZone(exported.stdout)]);
    expect(plan.code, plan.stderr).toBe(0);
    const report = JSON.parse(plan.stdout);
    expect(report.changes.filter((c: { action: string }) => c.action !== 'delete')).toEqual([]);
    expect(report.changes.map((c: { before: { name: string } }) => c.before.name)).not.toContain(
      expect.stringMatching(/^evil/),
    );
    const text = await bounded(['zone', 'plan', writeZone(exported.stdout)]);
    check(text.stdout);

    const apply = await bounded([
      'zone',
      'apply',
      '--force',
      writeZone(`$ORIGIN ${ZONE}.\n@ A 192.0.2.1\nhome A 192.0.2.20\nnew A 192.0.2.50\n`),
    ]);
    check(apply.stdout);
    check(apply.stderr);
    const backups = join(stateDir, 'zone-backups', ZONE);
    for (const file of readdirSync(backups)) check(readFileSync(join(backups, file), 'utf8'));
  });
});

describe('two applies at once (a cron job and a person)', () => {
  it('the second waits for nothing and changes nothing: exit 4 while the first holds the zone; the first converges alone', async () => {
    // 3 creates side by side, each held 4 s: the first apply is surely under way when the second starts.
    sandbox.faults.push(parseFault('service/dnscreate=slow:4000'));
    const lines = [...LIVE, ...Array.from({ length: 3 }, (_, i) => `c${i} A 192.0.2.${100 + i}`)];
    const file = writeZone(`$ORIGIN ${ZONE}.\n${lines.join('\n')}\n`);
    const first = startDist(['zone', 'apply', file, '--method', 'calls'], env());
    await waitForOutput(first, 'stderr', (t) => t.includes('backup of'));
    const second = await bounded(['zone', 'apply', file, '--method', 'calls']);
    expect(second.code, second.stdout + second.stderr).toBe(4);
    expect(second.stderr).toMatch(
      /another ddedge zone apply of zone\.example \(pid \d+\) is running \(lock .*zone-locks.*zone\.example.*\); nothing was changed; try again when it has finished/,
    );
    expect(second.stderr).not.toMatch(/cycle/);
    expect((await first.result).code).toBe(0);
    sandbox.faults.length = 0;
    expect(sandbox.model.services.find((s) => s.name === ZONE)!.dns.filter((e) => e.name.startsWith('c'))).toHaveLength(
      3,
    );
    expect((await bounded(['zone', 'plan', file])).stdout).toContain('0 to create, 0 to update, 0 to delete');
  });
});

describe('a record added by someone else while a dnssetzone apply runs', () => {
  it('an ACME challenge created after the plan read the zone is not erased by the one-call replace: exit 4, nothing sent; run again keeps it', async () => {
    let lists = 0;
    const proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const upstream = await fetch(new URL(req.url ?? '/', sandbox.url), {
          method: 'POST',
          headers: { 'content-type': req.headers['content-type'] ?? '' },
          body: Buffer.concat(chunks),
        });
        const body = await upstream.text();
        // Right after the plan's listing, an ACME client adds its challenge.
        if ((req.url ?? '').includes('dnslist') && ++lists === 1) {
          sandbox.model.services
            .find((s) => s.name === ZONE)!
            .dns.push({
              entityID: '900',
              name: `_acme-challenge.www.${ZONE}`,
              type: 'TXT',
              ttl: '60',
              priority: '-',
              value: 'fresh-token',
            });
        }
        res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(body);
      });
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const file = writeZone(
        `$ORIGIN ${ZONE}.\n${LIVE.join('\n')}\n${Array.from({ length: 5 }, (_, i) => `s${i} A 192.0.2.${60 + i}`).join('\n')}\n`,
      );
      sandbox.calls.clear();
      const run = await bounded(['zone', 'apply', file, '--method', 'setzone'], { DDEDGE_API_URL: url });
      expect(run.code, run.stdout + run.stderr).toBe(4);
      expect(run.stderr).toMatch(
        /the zone changed since it was read \(_acme-challenge\.www\.zone\.example TXT added\); nothing was sent/,
      );
      expect(sandbox.calls.get('service/dnssetzone')).toBeUndefined();
      const again = await bounded(['zone', 'apply', file, '--method', 'setzone'], { DDEDGE_API_URL: url });
      expect(again.code, again.stderr).toBe(0);
      const names = sandbox.model.services.find((s) => s.name === ZONE)!.dns.map((e) => `${e.name} ${e.value}`);
      expect(names).toEqual(
        expect.arrayContaining([
          `_acme-challenge.www.${ZONE} fresh-token`,
          `_acme-challenge.${ZONE} token`,
          `s4.${ZONE} 192.0.2.64`,
        ]),
      );
    } finally {
      proxy.closeAllConnections();
      proxy.close();
    }
  });
});

describe('TXT written without quotes', () => {
  it('several unquoted words (an SPF record typed by hand) are exit 2 saying how to quote them, not "v=spf1mx-all"', async () => {
    sandbox.calls.clear();
    const run = await bounded([
      'zone',
      'plan',
      writeZone(`$ORIGIN ${ZONE}.\n${LIVE.join('\n')}\n@ TXT v=spf1 mx -all\n`),
    ]);
    expect(run.code, run.stdout).toBe(2);
    expect(run.stderr).toMatch(
      /zone\.txt:4:7: TXT of several unquoted words is several strings joined without spaces \("v=spf1mx-all"\); quote the text: "v=spf1 mx -all"/,
    );
    expect(sandbox.calls.size).toBe(0);
  });

  it('one unquoted word, and several quoted strings (a DKIM key split by another tool), are read as before', async () => {
    const run = await bounded([
      'zone',
      'plan',
      '--json',
      writeZone(`$ORIGIN ${ZONE}.\n${LIVE.join('\n')}\na TXT token\nb TXT ( "v=DKIM1; k=rsa; "\n  "p=MIIB" "AQAB" )\n`),
    ]);
    expect(run.code, run.stderr).toBe(0);
    const values = JSON.parse(run.stdout).changes.map((c: { after: { value: string } }) => c.after.value);
    expect(values).toEqual(['token', 'v=DKIM1; k=rsa; p=MIIBAQAB']);
  });
});

describe('an empty file, or the wrong one, for a small zone', () => {
  it('stops a plan that deletes every record, even under 10 records and away from the apex; --force applies it', async () => {
    const service = emptyZone(sandbox, ZONE);
    service.dns.push({ entityID: '7', name: `home.${ZONE}`, type: 'A', ttl: '-', priority: '-', value: '192.0.2.20' });
    service.dns.push({
      entityID: '8',
      name: `www.${ZONE}`,
      type: 'CNAME',
      ttl: '-',
      priority: '-',
      value: `home.${ZONE}`,
    });
    const empty = writeZone(`$ORIGIN ${ZONE}.\n; nothing yet\n`);
    const stopped = await bounded(['zone', 'apply', empty, '--service', ZONE]);
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toMatch(/delete every record of the zone \(2\); is the file the right one\?/);
    expect(writes()).toBe(0);
    expect(service.dns).toHaveLength(2);
    const forced = await bounded(['zone', 'apply', empty, '--service', ZONE, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(service.dns).toHaveLength(0);
  });
});
