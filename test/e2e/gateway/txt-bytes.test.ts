// Text rdata that is not UTF-8, through the built gateway: the provider keeps a TXT value (and a
// CAA value) as a JSON string, so bytes such as "caf\233" cannot be held as they are. An attack
// found them turned into U+FFFD and stored (NOERROR), different byte strings then colliding as
// one record. Now such an update is REFUSED with an EDE saying why, before anything reaches the
// provider; a prerequisite naming such a value matches nothing the provider holds (NXRRSET);
// valid UTF-8 ("café") still goes through and is served back byte for byte.
import { execFile, execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { udpExchange } from '../../helpers/dns-wire.js';
import { useGateway, zoneLines } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { requireTool } from '../../helpers/programs.js';
import { CLASS, outcome, rr, signed, updateMessage } from '../../helpers/update-wire.js';

const TOOLS = requireTool('nsupdate', 'bind9-dnsutils') && requireTool('dig', 'bind9-dnsutils');
const REFUSED = 5;
const EDE_INVALID_DATA = 24;
const TYPE_CAA = 257;
const TYPE_TXT = 16;

const sandbox = useSandbox({ per: 'file' });
const gw = useGateway(() =>
  TOOLS ? { apiUrl: sandbox.url, keys: [{ name: 'admin', rules: ['grant "admin" zonesub;'] }] } : undefined,
);
afterAll(async () => {
  if (TOOLS) expect(await gw.stop()).toBe(0);
});

function nsupdate(lines: string[]): Promise<{ code: number; out: string }> {
  const key = gw.keys.get('admin')!;
  const script = [`server 127.0.0.1 ${gw.port}`, 'zone example.com', ...lines, 'send', ''].join('\n');
  const args = ['-d', '-t', '8', '-y', `${key.algorithm}:${key.name}:${key.secret.toString('base64')}`];
  return new Promise((resolve) => {
    const child = execFile('nsupdate', args, { timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
    child.stdin!.end(script);
  });
}

const providerCalls = () => [...sandbox.calls.values()].reduce((a, b) => a + b, 0);
const dig = (name: string, type: string) =>
  execFileSync('dig', ['@127.0.0.1', '-p', String(gw.port), '+norec', '+short', name, type], {
    encoding: 'utf8',
  }).trim();

describe.skipIf(!TOOLS)('text rdata that is not UTF-8', () => {
  it('an nsupdate add of TXT "caf\\233" is REFUSED with an EDE, logged at warn, and nothing reaches the provider', async () => {
    const before = providerCalls();
    const zoneBefore = zoneLines(sandbox);
    const { code, out } = await nsupdate(['update add t.example.com 60 TXT "caf\\233"']);
    expect(code, out).not.toBe(0);
    expect(out).toMatch(/status: REFUSED/);
    expect(providerCalls()).toBe(before);
    expect(zoneLines(sandbox)).toEqual(zoneBefore);
    expect(gw.stderr()).toMatch(/warn.*REFUSED.*t\.example\.com.*not UTF-8/i);
  });

  it.each([
    ['the two characters "" (how the provider holds an empty TXT)', 'TXT "\\"\\""', 'quoteq'],
    ['the text "\\200" (how the provider holds a byte that is not UTF-8)', 'TXT "\\"\\\\200\\""', 'bytesq'],
  ])(
    'a TXT whose text is %s would be read back as other data: REFUSED, saying so, nothing sent',
    async (_what, rdata, name) => {
      const before = providerCalls();
      const { code, out } = await nsupdate([`update add ${name}.example.com 60 ${rdata}`]);
      expect(code, out).not.toBe(0);
      expect(out).toMatch(/status: REFUSED/);
      expect(providerCalls()).toBe(before);
      expect(zoneLines(sandbox, `${name}.example.com`)).toEqual([]);
      expect(gw.stderr()).toMatch(new RegExp(`REFUSED.*${name}\\.example\\.com TXT: .*read back as other data`));
    },
  );

  it('a TXT string of valid UTF-8 ("café") is added and served back byte for byte', async () => {
    const { code, out } = await nsupdate(['update add cafe.example.com 60 TXT "café"']);
    expect(code, out).toBe(0);
    expect(zoneLines(sandbox, 'cafe.example.com')).toEqual(['cafe.example.com TXT café']);
    // dig writes each byte past ASCII as \DDD: c3 a9 is é in UTF-8.
    expect(dig('cafe.example.com', 'TXT')).toBe('"caf\\195\\169"');
  });

  it('a delete naming "caf\\233" is REFUSED too: it must not delete the "caf\\239\\191\\189" it used to be turned into', async () => {
    expect((await nsupdate(['update add fffd.example.com 60 TXT "caf\\239\\191\\189"'])).code).toBe(0);
    const before = providerCalls();
    const { code, out } = await nsupdate(['update delete fffd.example.com TXT "caf\\233"']);
    expect(code, out).not.toBe(0);
    expect(out).toMatch(/status: REFUSED/);
    expect(providerCalls()).toBe(before);
    expect(zoneLines(sandbox, 'fffd.example.com')).toEqual(['fffd.example.com TXT caf\u{fffd}']);
  });

  it('a prerequisite naming "caf\\233" matches nothing the provider holds: NXRRSET, even where "caf\\239\\191\\189" is held', async () => {
    expect((await nsupdate(['update add fffd.example.com 60 TXT "caf\\239\\191\\189"'])).code).toBe(0);
    const { code, out } = await nsupdate([
      'prereq yxrrset fffd.example.com TXT "caf\\233"',
      'update add other.example.com 60 A 192.0.2.9',
    ]);
    expect(code, out).not.toBe(0);
    expect(out).toMatch(/status: NXRRSET/);
    expect(zoneLines(sandbox, 'other.example.com')).toEqual([]);
  });

  // nsupdate sends no OPT record, so the EDE is seen here with the update on the wire (EDNS on).
  it.each([
    ['TXT', TYPE_TXT, Buffer.from([2, 0x6f, 0x6b, 3, 0x63, 0x61, 0xe9])],
    ['CAA', TYPE_CAA, Buffer.concat([Buffer.from([0, 5]), Buffer.from('issue'), Buffer.from([0x63, 0x61, 0xe9])])],
  ])('a %s value that is not UTF-8 is REFUSED with EDE Invalid Data saying why', async (_name, type, data) => {
    const before = providerCalls();
    const answer = outcome(
      await udpExchange(
        gw.port,
        signed(
          updateMessage({ updates: [rr('wire.example.com', type, CLASS.IN, 60, data)], edns: 1232 }),
          gw.keys.get('admin')!,
        ),
        10_000,
      ),
    );
    expect(answer.rcode).toBe(REFUSED);
    expect(answer.ede).toBe(EDE_INVALID_DATA);
    expect(answer.edeText).toMatch(/not UTF-8/);
    expect(providerCalls()).toBe(before);
  });
});
