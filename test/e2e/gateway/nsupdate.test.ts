// `ddedge gateway` (the built file) in front of the sandbox's API, driven by BIND's nsupdate as
// users and ACME clients drive it: SOA discovery with no zone line, UDP and TCP, every update
// form, prerequisites, a key held to its grants, a zone not served, an unsigned update, and a
// write the provider fails half-way (rolled back, SERVFAIL). What changed is read back through
// the API (service/dnslist), so the test sees the provider's zone, not the gateway's view.
import { execFile, execFileSync } from 'node:child_process';
import dgram from 'node:dgram';
import { decodeMessage, encodeMessage } from '../../../src/dns/wire/message.js';
import { signMessage } from '../../../src/dns/wire/tsig.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFault } from '../../../src/sandbox/faults.js';
import { requireTool } from '../../helpers/programs.js';
import { useGateway, waitFor } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const TOOLS = requireTool('nsupdate', 'bind9-dnsutils') && requireTool('dig', 'bind9-dnsutils');

const sandbox = useSandbox({ per: 'file' });
/** A secondary's UDP port: the NOTIFYs it received (zone, serial), each acknowledged. */
let secondary: dgram.Socket;
const notifies: { zone: string; serial: number }[] = [];

/** Runs an nsupdate script (`server` line added) signed with `keyName`; resolves with exit code and output. */
function nsupdate(keyName: string | undefined, lines: string[], tcp = false): Promise<{ code: number; out: string }> {
  const script = [`server 127.0.0.1 ${gateway.port}`, ...lines, 'send', ''].join('\n');
  const args = [...(tcp ? ['-v'] : []), '-t', '8', ...(keyName ? ['-y', secrets.get(keyName)!] : [])];
  return new Promise((resolve) => {
    const child = execFile('nsupdate', args, { timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
    child.stdin!.end(script);
  });
}

/** The zone as the provider holds it: `name TYPE value` lines for names below `under`. */
function zone(under = ''): string[] {
  return sandbox.model.services
    .find((s) => s.name === 'example.com')!
    .dns.filter((e) => e.name.endsWith(under))
    .map((e) => `${e.name} ${e.type} ${e.value}`)
    .sort();
}

beforeAll(async () => {
  if (!TOOLS) return;
  secondary = dgram.createSocket('udp4');
  secondary.on('message', (packet, peer) => {
    const m = decodeMessage(packet);
    const soa = m.answers.find((r) => r.type === 'SOA');
    if (m.opcode === 4 && soa?.type === 'SOA') notifies.push({ zone: soa.name, serial: soa.value.serial });
    secondary.send(
      encodeMessage({ id: m.id, response: true, opcode: 4, authoritative: true, questions: m.questions }),
      peer.port,
      peer.address,
    );
  });
  await new Promise<void>((r) => secondary.bind(0, '127.0.0.1', () => r()));
});
const gateway = useGateway(() =>
  TOOLS
    ? {
        apiUrl: sandbox.url,
        args: ['--notify', `127.0.0.1:${secondary.address().port}`],
        env: { DDEDGE_HOSTS: 'home.example.com' },
        keys: [
          { name: 'admin', rules: ['grant "admin" zonesub;'] },
          { name: 'acme', algorithm: 'hmac-sha512', rules: ['grant "acme" wildcard *.example.com TXT;'] },
          { name: 'old', algorithm: 'hmac-md5', rules: ['grant "old" subdomain lab.example.com;'] },
          { name: 'xfr', algorithm: 'hmac-sha384', rules: ['transfer "xfr";'] },
          { name: 'router', rules: ['grant "router" name home.example.com A;'] },
        ],
      }
    : undefined,
);
/** Each key's nsupdate `-y` argument, ALGORITHM:NAME:SECRET (a test adds a forged one). */
const secrets = new Map<string, string>();
beforeAll(() => {
  if (TOOLS) for (const name of gateway.keys.keys()) secrets.set(name, gateway.nsupdateKey(name));
});
afterAll(async () => {
  if (TOOLS) expect(await gateway.stop()).toBe(0);
  secondary?.close();
});

describe.skipIf(!TOOLS)('nsupdate through the gateway', () => {
  it('finds the zone by its SOA (no zone line) and adds over UDP; the provider holds the record', async () => {
    const { code, out } = await nsupdate('admin', ['update add new.example.com 120 A 192.0.2.77']);
    expect(code, out).toBe(0);
    expect(zone('new.example.com')).toEqual(['new.example.com A 192.0.2.77']);
    const soa = execFileSync(
      'dig',
      ['@127.0.0.1', '-p', String(gateway.port), '+norec', '+short', 'example.com', 'SOA'],
      { encoding: 'utf8' },
    );
    expect(soa).toMatch(/^gateway\.example\.net\. hostmaster\.example\.com\. \d+ /);
    // The secondary is told of the new serial (NOTIFY, RFC 1996).
    const serial = Number(soa.split(' ')[2]);
    await waitFor(() => notifies.some((n) => n.serial === serial), `a NOTIFY of serial ${serial}`);
    expect(notifies).toContainEqual({ zone: 'example.com', serial });
    const a = execFileSync('dig', ['@127.0.0.1', '-p', String(gateway.port), '+norec', 'new.example.com', 'A'], {
      encoding: 'utf8',
    });
    expect(a).toMatch(/flags: qr aa;/);
    expect(a).toMatch(/new\.example\.com\.\s+120\s+IN\s+A\s+192\.0\.2\.77/);
    // The audit journal has the change, who made it and from where, and no secret.
    const journal = readFileSync(join(gateway.stateDir, 'gateway', 'journal.jsonl'), 'utf8');
    const entry = JSON.parse(journal.trim().split('\n')[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({
      zone: 'example.com',
      key: 'admin',
      client: '127.0.0.1',
      changes: [{ action: 'create', name: 'new.example.com', type: 'A', after: '120 192.0.2.77' }],
    });
    for (const secret of secrets.values()) expect(journal).not.toContain(secret.split(':')[2]);
  });

  it('over TCP: prerequisites decide (nxdomain then yxdomain), and each update form does what RFC 2136 says', async () => {
    const first = await nsupdate(
      'admin',
      [
        'zone example.com',
        'prereq nxdomain multi.example.com',
        'update add multi.example.com 60 TXT "one"',
        'update add multi.example.com 60 TXT "two"',
        'update add multi.example.com 60 TXT "three"',
      ],
      true,
    );
    expect(first.code, first.out).toBe(0);
    expect(zone('multi.example.com')).toEqual([
      'multi.example.com TXT one',
      'multi.example.com TXT three',
      'multi.example.com TXT two',
    ]);
    const again = await nsupdate(
      'admin',
      ['zone example.com', 'prereq nxdomain multi.example.com', 'update add multi.example.com 60 TXT "four"'],
      true,
    );
    expect(again.code).not.toBe(0);
    expect(again.out).toMatch(/YXDOMAIN/);
    expect(zone('multi.example.com')).toHaveLength(3);
    // Delete one value; then the value-dependent prerequisite on what is left; then the whole RRset.
    expect((await nsupdate('admin', ['update delete multi.example.com TXT "two"'], true)).code).toBe(0);
    expect(zone('multi.example.com')).toEqual(['multi.example.com TXT one', 'multi.example.com TXT three']);
    const exact = await nsupdate('admin', [
      'prereq yxrrset multi.example.com TXT "one"',
      'update add multi.example.com 60 TXT "never"',
    ]);
    expect(exact.out).toMatch(/NXRRSET/);
    expect(
      (await nsupdate('admin', ['prereq yxrrset multi.example.com TXT', 'update delete multi.example.com TXT'])).code,
    ).toBe(0);
    expect(zone('multi.example.com')).toEqual([]);
    // Delete everything at a name; a CNAME beside other data is ignored, as BIND ignores it.
    expect(
      (
        await nsupdate('admin', [
          'update add gone.example.com 60 A 192.0.2.1',
          'update add gone.example.com 60 TXT "x"',
        ])
      ).code,
    ).toBe(0);
    expect((await nsupdate('admin', ['update add gone.example.com 60 CNAME example.com'])).code).toBe(0);
    expect(zone('gone.example.com')).toEqual(['gone.example.com A 192.0.2.1', 'gone.example.com TXT x']);
    expect((await nsupdate('admin', ['update delete gone.example.com'])).code).toBe(0);
    expect(zone('gone.example.com')).toEqual([]);
  });

  it('holds a key to its grants (REFUSED), answers NOTAUTH for a zone not served and for an unsigned update; nothing changes', async () => {
    const before = zone();
    const outside = await nsupdate('acme', ['update add www2.example.com 60 A 192.0.2.9']);
    expect(outside.out).toMatch(/REFUSED/);
    const txtAtApex = await nsupdate('acme', ['update add example.com 60 TXT "not below"']);
    expect(txtAtApex.out).toMatch(/REFUSED/);
    const otherZone = await nsupdate('admin', ['zone example.org', 'update add x.example.org 60 A 192.0.2.9']);
    expect(otherZone.out).toMatch(/NOTAUTH/);
    const unsigned = await nsupdate(undefined, ['zone example.com', 'update add x.example.com 60 A 192.0.2.9']);
    expect(unsigned.out).toMatch(/NOTAUTH/);
    // A wrong secret on an update whose records carry no data (a delete of an RRset): NOTAUTH, not FORMERR.
    secrets.set('forged', secrets.get('admin')!.replace(/:[^:]+$/, `:${Buffer.alloc(32, 9).toString('base64')}`));
    const forged = await nsupdate('forged', ['update delete home.example.com A']);
    expect(forged.code).not.toBe(0);
    expect(forged.out).not.toMatch(/FORMERR/);
    expect(zone()).toEqual(before);
    // What the ACME key may do, it does (hmac-sha512); the hmac-md5 key too, in its subdomain.
    expect((await nsupdate('acme', ['update add _acme-challenge.www.example.com 60 TXT "token-1"'])).code).toBe(0);
    expect((await nsupdate('old', ['update add host.lab.example.com 60 AAAA 2001:db8::5'])).code).toBe(0);
    expect(zone('_acme-challenge.www.example.com')).toEqual(['_acme-challenge.www.example.com TXT token-1']);
    expect(zone('lab.example.com')).toEqual(['host.lab.example.com AAAA 2001:db8::5']);
  });

  it('refuses an update of more than 1,000 records before reading the zone, and answers other zones REFUSED with an EDE', async () => {
    const before = zone();
    const lines = Array.from({ length: 1001 }, (_, i) => `update add bulk.example.com 60 TXT "v${i}"`);
    const big = await nsupdate('admin', lines, true);
    expect(big.out).toMatch(/REFUSED/);
    expect(zone()).toEqual(before);
    const other = execFileSync('dig', ['@127.0.0.1', '-p', String(gateway.port), '+norec', 'example.org', 'SOA'], {
      encoding: 'utf8',
    });
    expect(other).toMatch(/status: REFUSED/);
    expect(other).toMatch(/EDE: 20 \(Not Authoritative\)/);
  });

  it.skipIf(!requireTool('knsupdate', 'knot-dnsutils'))(
    "knsupdate (Knot's client): zone line, yxrrset prerequisite, delete of one value",
    async () => {
      const [algorithm, name, secret] = secrets.get('admin')!.split(':');
      const run = (lines: string[]) =>
        new Promise<{ code: number; out: string }>((resolve) => {
          const child = execFile(
            'knsupdate',
            ['-t', '8', '-y', `${algorithm}:${name}:${secret}`],
            { timeout: 20_000 },
            (error, stdout, stderr) => resolve({ code: error ? 1 : 0, out: stdout + stderr }),
          );
          child.stdin!.end(
            [`server 127.0.0.1 ${gateway.port}`, 'zone example.com.', 'origin example.com.', ...lines, 'send', ''].join(
              '\n',
            ),
          );
        });
      const added = await run(['add kn 60 TXT "a"', 'add kn 60 TXT "b"']);
      expect(added.code, added.out).toBe(0);
      expect(zone('kn.example.com')).toEqual(['kn.example.com TXT a', 'kn.example.com TXT b']);
      const removed = await run(['prereq yxrrset kn TXT', 'del kn TXT "a"']);
      expect(removed.code, removed.out).toBe(0);
      expect(zone('kn.example.com')).toEqual(['kn.example.com TXT b']);
    },
  );

  it('answers a burst of 50 updates within a second with at most 5 reads of the zone', async () => {
    const [, name, secret] = secrets.get('admin')!.split(':');
    const signer = { name: name!, algorithm: 'hmac-sha256' as const, secret: Buffer.from(secret!, 'base64') };
    const reads = sandbox.calls.get('service/dnslist') ?? 0;
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
    const answers = new Map<number, number>();
    const all = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 15_000);
      socket.on('message', (m) => {
        answers.set(m.readUInt16BE(0), m.readUInt16BE(2) & 0xf);
        if (answers.size === 50) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    for (let i = 0; i < 50; i++) {
      // The update section is the third (NSCOUNT): an add is a class IN record, as the codec writes it.
      const update = encodeMessage({
        id: 1000 + i,
        opcode: 5,
        questions: [{ name: 'example.com', type: 6, class: 1 }],
        authority: [{ name: `burst${i}.example.com`, type: 'A', ttl: 60, value: `192.0.2.${100 + i}` }],
      });
      socket.send(
        signMessage(update, signer, undefined, { timeSigned: Math.floor(Date.now() / 1000) }).message,
        gateway.port,
        '127.0.0.1',
      );
    }
    await all;
    socket.close();
    expect(answers.size).toBe(50);
    expect([...answers.values()].every((rcode) => rcode === 0)).toBe(true);
    expect(zone('').filter((line) => line.startsWith('burst'))).toHaveLength(50);
    expect((sandbox.calls.get('service/dnslist') ?? 0) - reads).toBeLessThanOrEqual(5);
  });

  it("leaves the agent's host to a key whose grant names it exactly", async () => {
    const refused = await nsupdate('admin', [
      'update delete home.example.com A',
      'update add home.example.com 60 A 192.0.2.66',
    ]);
    expect(refused.out).toMatch(/REFUSED/);
    expect(zone('home.example.com')).toEqual(['home.example.com A 192.0.2.20']);
    const named = await nsupdate('router', [
      'update delete home.example.com A',
      'update add home.example.com 60 A 192.0.2.66',
    ]);
    expect(named.code, named.out).toBe(0);
    expect(zone('home.example.com')).toEqual(['home.example.com A 192.0.2.66']);
  });

  it('transfers the zone by AXFR, TSIG-signed message by message, to a key allowed to transfer only', async () => {
    const axfr = (...args: string[]) =>
      new Promise<string>((resolve) =>
        execFile(
          'dig',
          ['@127.0.0.1', '-p', String(gateway.port), '+time=5', '+tries=1', ...args, 'example.com', 'AXFR'],
          (_e, stdout) => resolve(stdout),
        ),
      );
    const [user, , secret] = secrets.get('xfr')!.split(':');
    const allowed = await axfr('-y', `${user}:xfr:${secret}`);
    const lines = allowed.split('\n').filter((l) => l && !l.startsWith(';') && !/\sTSIG\s/.test(l));
    expect(lines[0]).toMatch(/^example\.com\.\s+\d+\s+IN\s+SOA\s+gateway\.example\.net\./);
    expect(lines.at(-1)).toBe(lines[0]);
    expect(allowed).toMatch(/www\.example\.com\.\s+\d+\s+IN\s+CNAME\s+example\.com\./);
    expect(allowed).not.toMatch(/verify|failed/i);
    for (const args of [['-y', secrets.get('admin')!], []]) expect(await axfr(...args)).toMatch(/Transfer failed/);
  });

  it('rolls back an update the provider fails half-way and answers SERVFAIL; the zone is as before', async () => {
    const before = zone();
    sandbox.faults.push(parseFault('service/dnscreate=500x1'));
    const deletes = sandbox.calls.get('service/dnsdelete') ?? 0;
    const { code, out } = await nsupdate('admin', [
      'update add half.example.com 60 A 192.0.2.1',
      'update add half.example.com 60 A 192.0.2.2',
    ]);
    expect(code).not.toBe(0);
    expect(out).toMatch(/SERVFAIL/);
    expect(zone()).toEqual(before);
    // One create went through, the other failed: the one that went through was deleted again.
    expect(sandbox.calls.get('service/dnsdelete')).toBe(deletes + 1);
  });
});
