// BIND `named` as a secondary of a gateway zone, configured as an operator would configure one:
// `primaries { 127.0.0.1 port P key "xfr"; }` and NOTIFY allowed from the primary's address.
// The gateway runs with `--notify` at the secondary and a key allowed to `transfer`. After an
// nsupdate to the gateway, the secondary must get the NOTIFY, transfer the zone (SOA query and
// AXFR/IXFR, TSIG-signed with the xfr key) and serve the new serial and the new record; the
// SOA's refresh (an hour) is far beyond the test's wait, so only the NOTIFY can bring it there.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dig, keyStatement, startNamed, type Named } from '../../helpers/named.js';
import { freePort, requireTool } from '../../helpers/programs.js';
import { useGateway } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { HANG_BOUND_MS } from '../../helpers/cli.js';

const TOOLS =
  requireTool('named', 'bind9') && requireTool('nsupdate', 'bind9-dnsutils') && requireTool('dig', 'bind9-dnsutils');

const ZONE = 'example.com';
const sandbox = useSandbox({ per: 'file' });
let secondary: Named;
// The gateway must know where to send NOTIFYs before the secondary, which must know the gateway's port, starts.
let secondaryPort: number;
beforeAll(async () => {
  if (TOOLS) secondaryPort = await freePort();
});
const gateway = useGateway(() =>
  TOOLS
    ? {
        apiUrl: sandbox.url,
        args: ['--notify', `127.0.0.1:${secondaryPort}`],
        keys: [
          { name: 'admin', rules: ['grant "admin" zonesub;'] },
          { name: 'xfr', rules: ['transfer "xfr";'] },
        ],
      }
    : undefined,
);

function nsupdate(lines: string[]): Promise<{ code: number; out: string }> {
  const script = [`server 127.0.0.1 ${gateway.port}`, `zone ${ZONE}`, ...lines, 'send', ''].join('\n');
  return new Promise((resolve) => {
    const child = execFile(
      'nsupdate',
      ['-t', '8', '-y', gateway.nsupdateKey('admin')],
      { timeout: 20_000 },
      (error, stdout, stderr) => resolve({ code: error ? 1 : 0, out: stdout + stderr }),
    );
    child.stdin!.end(script);
  });
}

const serialOf = (answer: string): number | undefined => {
  const soa = /\sIN\s+SOA\s+\S+\s+\S+\s+(\d+)\s/.exec(answer);
  return soa ? Number(soa[1]) : undefined;
};

/** Polls the secondary (bounded by a hang) until `done` holds for its answer to `args`. */
async function secondaryAnswers(args: string[], done: (answer: string) => boolean): Promise<string> {
  let answer = '';
  const deadline = Date.now() + HANG_BOUND_MS;
  while (Date.now() < deadline) {
    answer = await dig(secondary.port, args);
    if (done(answer)) return answer;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(
    `the secondary never answered as expected; last answer:\n${answer}\nnamed's log:\n${secondary.output()}`,
  );
}

beforeAll(async () => {
  if (!TOOLS) return;
  secondary = await startNamed({
    port: secondaryPort,
    statements: `${keyStatement('xfr', 'hmac-sha256', gateway.secret('xfr'))}
zone "${ZONE}" { type secondary; file "example.com.secondary"; primaries { 127.0.0.1 port ${gateway.port} key "xfr"; }; allow-notify { 127.0.0.1; }; };\n`,
  });
}, 60_000);

afterAll(async () => {
  await secondary?.stop();
  await gateway.stop();
});

describe.skipIf(!TOOLS)('BIND named as a secondary of the gateway', () => {
  it('loads the zone at start by a TSIG-signed transfer', async () => {
    const answer = await secondaryAnswers([ZONE, 'SOA'], (a) => /status: NOERROR/.test(a) && /flags: qr aa/.test(a));
    expect(answer).toMatch(/SOA\s+gateway\.example\.net\. hostmaster\.example\.com\./);
    const www = await dig(secondary.port, [`www.${ZONE}`, 'CNAME']);
    expect(www).toMatch(/www\.example\.com\.\s+\d+\s+IN\s+CNAME\s+example\.com\./);
  });

  it('after an nsupdate to the gateway, gets the NOTIFY, transfers the zone and serves the new serial and record', async () => {
    const before = serialOf(await dig(secondary.port, [ZONE, 'SOA']))!;
    expect(before).toBeGreaterThan(0);
    const update = await nsupdate(['update add notified.example.com 120 A 192.0.2.123']);
    expect(update.code, update.out).toBe(0);
    const answered = performance.now();
    const primarySerial = serialOf(await dig(gateway.port, [ZONE, 'SOA']))!;
    expect(primarySerial).toBeGreaterThan(before);
    await secondaryAnswers([ZONE, 'SOA'], (a) => serialOf(a) === primarySerial);
    const served = performance.now();
    const record = await dig(secondary.port, [`notified.${ZONE}`, 'A']);
    expect(record).toMatch(/flags: qr aa/);
    expect(record).toMatch(/notified\.example\.com\.\s+120\s+IN\s+A\s+192\.0\.2\.123/);
    // What the secondary logged: a NOTIFY from the primary, then a transfer signed with the xfr key.
    expect(secondary.output()).toMatch(/notify from 127\.0\.0\.1#\d+: serial \d+/);
    expect(secondary.output()).toMatch(/Transfer status: success/);
    expect(secondary.output()).toMatch(/TSIG xfr/);
    console.info(
      `the secondary served serial ${primarySerial} ${Math.round(served - answered)} ms after the gateway answered the update`,
    );
  });

  it('follows a delete too: the record is gone from the secondary', async () => {
    const update = await nsupdate(['update delete notified.example.com A']);
    expect(update.code, update.out).toBe(0);
    const primarySerial = serialOf(await dig(gateway.port, [ZONE, 'SOA']))!;
    await secondaryAnswers([ZONE, 'SOA'], (a) => serialOf(a) === primarySerial);
    expect(await dig(secondary.port, [`notified.${ZONE}`, 'A'])).toMatch(/status: NXDOMAIN/);
  });
});
