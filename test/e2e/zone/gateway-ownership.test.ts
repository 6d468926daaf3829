// What a command may touch is one policy: the records `zone apply` keeps (the agent's hosts as
// its state file records them, ddedge acme's challenges, the SOA and apex NS) are the records
// the gateway refuses to change, through its RFC 2136 door and its dyndns2 door alike, with the
// names normalised the same way (a host the state file holds in Unicode and upper case is kept
// under its punycode name, as the provider and the DNS name it). Where the callers differ by
// design, the test pins that too: an ACME client may change its own challenge through the
// gateway, not one ddedge acme made.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock } from '../../../src/state/lock.js';
import { writeState } from '../../../src/state/state.js';
import { withApi } from '../../helpers/agent-env.js';
import { useGateway, zoneLines } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { baseEnv, runDist } from '../../helpers/cli.js';
import { requireTool } from '../../helpers/programs.js';
import { writeZone } from '../../helpers/zone.js';

const TOOLS = requireTool('nsupdate', 'bind9-dnsutils') && requireTool('curl');
const IDN = 'xn--bcher-kva.example.com';

const sandbox = useSandbox({ per: 'file' });
const door = useGateway(() =>
  TOOLS ? { apiUrl: sandbox.url, door: {}, keys: [{ name: 'admin', rules: ['grant "admin" zonesub;'] }] } : undefined,
);
let port: number;

beforeAll(async () => {
  if (!TOOLS) return;
  port = door.port;
  const dns = sandbox.model.services.find((s) => s.name === 'example.com')!.dns;
  const entry = (entityID: string, name: string, type: string, value: string) =>
    dns.push({ entityID, name, type, ttl: '-', priority: '-', value });
  entry('9001', IDN, 'A', '192.0.2.7');
  entry('9002', '_acme-challenge.www.example.com', 'TXT', 'made-by-ddedge-acme');
  entry('9003', '_acme-challenge.mail.example.com', 'TXT', 'made-by-another-client');
  // The agent's state as a hand-edited (or older) state file may hold it: Unicode, upper case.
  writeState(door.stateDir, {
    version: 1,
    records: {
      'Bücher.Example.com/A': { host: 'Bücher.Example.com', type: 'A', address: '192.0.2.7' },
      'home.example.com/A': { host: 'home.example.com', type: 'A', address: '192.0.2.20' },
    },
  } as Parameters<typeof writeState>[1]);
  mkdirSync(join(door.stateDir, 'acme'), { recursive: true });
  const challenge = {
    name: '_acme-challenge.www.example.com',
    value: 'made-by-ddedge-acme',
    service: 'example.com',
    entityID: '9002',
    createdAt: new Date().toISOString(),
  };
  writeFileSync(
    join(door.stateDir, 'acme', 'challenges.json'),
    JSON.stringify({ version: 1, challenges: [challenge] }),
  );
});
afterAll(async () => {
  if (TOOLS) expect(await door.stop()).toBe(0);
});

function nsupdate(lines: string[]): Promise<{ code: number; out: string }> {
  const script = [`server 127.0.0.1 ${port}`, ...lines, 'send', ''].join('\n');
  return new Promise((resolve) => {
    const child = execFile(
      'nsupdate',
      ['-t', '8', '-y', `hmac-sha256:admin:${door.secret('admin')}`],
      { timeout: 20_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
    child.stdin!.end(script);
  });
}

async function dyndns2(hostname: string, ip: string): Promise<string> {
  const res = await fetch(`${door.dyndns2}/nic/update?hostname=${hostname}&myip=${ip}`, {
    headers: { authorization: `Basic ${Buffer.from(`admin:${door.secret('admin')}`).toString('base64')}` },
  });
  return (await res.text()).trim();
}

describe.skipIf(!TOOLS)('zone apply and the gateway keep the same records', () => {
  it('zone plan keeps the recorded hosts (the Unicode one under its punycode name), every ACME challenge, the SOA and apex NS', async () => {
    const file = writeZone(
      `$ORIGIN example.com.\n@ A 192.0.2.10\nwww CNAME @\nhome A 192.0.2.66\n@ MX 10 mail\n@ TXT "v=spf1 mx -all"\n${IDN}. A 192.0.2.66\n`,
    );
    const plan = await runDist(
      ['zone', 'plan', file, '--json'],
      baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: door.stateDir }),
    );
    expect(plan.code, plan.stderr).toBe(0);
    const report = JSON.parse(plan.stdout) as {
      changes: unknown[];
      kept: { name: string; type: string; reason: string }[];
    };
    expect(report.changes).toEqual([]);
    const kept = report.kept.map((k) => `${k.name} ${k.type}: ${k.reason}`);
    const recorded = `one of the agent's hosts, recorded in ${join(door.stateDir, 'state.json')}`;
    expect(kept).toEqual(
      expect.arrayContaining([
        `${IDN} A: ${recorded}`,
        `home.example.com A: ${recorded}`,
        '_acme-challenge.www.example.com TXT: an ACME challenge (_acme-challenge TXT)',
        '_acme-challenge.mail.example.com TXT: an ACME challenge (_acme-challenge TXT)',
      ]),
    );
  });

  it("refuses through the RFC 2136 door the recorded hosts (the Unicode one too) and ddedge acme's challenge; leaves the apex NS alone", async () => {
    for (const name of [IDN, 'home.example.com']) {
      const refused = await nsupdate([`update delete ${name} A`, `update add ${name} 60 A 192.0.2.66`]);
      expect(refused.out, name).toMatch(/REFUSED/);
      expect(zoneLines(sandbox, name), name).toEqual([`${name} A ${name === IDN ? '192.0.2.7' : '192.0.2.20'}`]);
    }
    const challenge = await nsupdate(['update delete _acme-challenge.www.example.com TXT']);
    expect(challenge.out).toMatch(/REFUSED/);
    expect(zoneLines(sandbox, '_acme-challenge.www.example.com')).toEqual([
      '_acme-challenge.www.example.com TXT made-by-ddedge-acme',
    ]);
    const apexNs = await nsupdate(['update add example.com 60 NS ns.example.net']);
    expect(apexNs.code, apexNs.out).toBe(0);
    expect(zoneLines(sandbox).filter((l) => / NS /.test(l))).toEqual([]);
    await door.logged(new RegExp(`${IDN.replace(/\./g, '\\.')} A is kept by the ddedge agent`));
  });

  it('refuses through the dyndns2 door the recorded hosts (the Unicode one too), as the DNS door does', async () => {
    expect(await dyndns2(IDN, '81.0.2.66')).toBe('nohost');
    expect(await dyndns2('home.example.com', '81.0.2.66')).toBe('nohost');
    await door.logged(new RegExp(`nohost: dyndns2: ${IDN.replace(/\./g, '\\.')} A is kept by the ddedge agent`));
    expect(zoneLines(sandbox, IDN)).toEqual([`${IDN} A 192.0.2.7`]);
    expect(zoneLines(sandbox, 'home.example.com')).toEqual(['home.example.com A 192.0.2.20']);
  });

  it('lets a key change an ACME challenge ddedge acme did not make (an ACME client using the gateway)', async () => {
    const own = await nsupdate(['update delete _acme-challenge.mail.example.com TXT']);
    expect(own.code, own.out).toBe(0);
    expect(zoneLines(sandbox, '_acme-challenge.mail.example.com')).toEqual([]);
  });

  it("waits for the zone's lock, the one zone apply takes (<state dir>/zone-locks/<zone>): an update while another holds it is SERVFAIL, and changes nothing", async () => {
    const lock = acquireLock(join(door.stateDir, 'zone-locks', 'example.com'));
    try {
      const locked = await nsupdate(['update add locked.example.com 60 A 192.0.2.9']);
      expect(locked.out).toMatch(/SERVFAIL/);
      expect(zoneLines(sandbox, 'locked.example.com')).toEqual([]);
      await door.logged(/the zone is locked by another change/);
    } finally {
      lock.release();
    }
    const free = await nsupdate(['update add locked.example.com 60 A 192.0.2.9']);
    expect(free.code, free.out).toBe(0);
  });
});
