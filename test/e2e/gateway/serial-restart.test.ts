// The SOA serial never goes back across a restart, by RFC 1982's arithmetic, with BIND `named` as
// the secondary that would notice: quick DHCID-only updates put the gateway's serial ahead of the
// clock (one more per change within a second); the gateway restarts on the same state directory
// and port; a change after the restart still reaches the secondary (NOTIFY, then a transfer it
// only makes for a higher serial). A gateway that restarted from the clock served a serial lower
// than the one the secondary held, and the secondary ignored every change until the clock caught up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { HANG_BOUND_MS, tempDir } from '../../helpers/cli.js';
import { udpExchange } from '../../helpers/dns-wire.js';
import { startGatewayProcess, writeKeysFile, type GatewayProcess } from '../../helpers/use-gateway.js';
import { dig, keyStatement, startNamed, type Named } from '../../helpers/named.js';
import { freePort, requireTool } from '../../helpers/programs.js';
import { aData, CLASS, outcome, rr, signed, TYPE, updateMessage } from '../../helpers/update-wire.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const TOOLS = requireTool('named', 'bind9') && requireTool('dig', 'bind9-dnsutils');
const ZONE = 'example.com';
const TYPE_DHCID = 49;
/** DHCID-only updates sent one after another: each a change, most within the same second as the last. */
const QUICK_UPDATES = 80;

const sandbox = useSandbox({ per: 'file' });
let gateway: GatewayProcess | undefined;
let secondary: Named;
const stateDir = join(tempDir('ddedge-serial-'), 'state');
const { file: keysFile, keys } = writeKeysFile([
  { name: 'kea', rules: ['grant "kea" zonesub A DHCID;'] },
  { name: 'xfr', rules: ['transfer "xfr";'] },
]);
let gatewayPort: number;
let secondaryPort: number;

const serialOf = (answer: string): number | undefined => {
  const soa = /\sIN\s+SOA\s+\S+\s+\S+\s+(\d+)\s/.exec(answer);
  return soa ? Number(soa[1]) : undefined;
};

/** Polls the secondary (bounded by a hang) until `done` holds. */
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

const startGateway = () =>
  startGatewayProcess({
    apiUrl: sandbox.url,
    zone: ZONE,
    keysFile,
    stateDir,
    port: gatewayPort,
    args: ['--notify', `127.0.0.1:${secondaryPort}`],
  });

beforeAll(async () => {
  if (!TOOLS) return;
  secondaryPort = await freePort();
  gateway = await startGatewayProcess({
    apiUrl: sandbox.url,
    zone: ZONE,
    keysFile,
    stateDir,
    args: ['--notify', `127.0.0.1:${secondaryPort}`],
  });
  gatewayPort = gateway.port;
  secondary = await startNamed({
    port: secondaryPort,
    statements: `${keyStatement('xfr', 'hmac-sha256', keys.get('xfr')!.secret.toString('base64'))}
zone "${ZONE}" { type secondary; file "example.com.secondary"; primaries { 127.0.0.1 port ${gatewayPort} key "xfr"; }; allow-notify { 127.0.0.1; }; };\n`,
  });
}, 60_000);

afterAll(async () => {
  await secondary?.stop();
  await gateway?.stop();
});

describe.skipIf(!TOOLS)('the SOA serial across a restart, with BIND named as the secondary', () => {
  it('stays above what the secondary holds: a change after the restart reaches it', { timeout: 120_000 }, async () => {
    await secondaryAnswers([ZONE, 'SOA'], (a) => /status: NOERROR/.test(a) && serialOf(a) !== undefined);
    const kea = keys.get('kea')!;
    for (let i = 0; i < QUICK_UPDATES; i++) {
      const add = signed(
        updateMessage({
          updates: [
            rr(
              `lease${i}.${ZONE}`,
              TYPE_DHCID,
              CLASS.IN,
              300,
              Buffer.concat([Buffer.from([0, 1, 1]), Buffer.alloc(32, i)]),
            ),
          ],
        }),
        kea,
      );
      expect(outcome(await udpExchange(gatewayPort, add)).rcode).toBe(0);
    }
    const ahead = serialOf(await dig(gatewayPort, [ZONE, 'SOA']))!;
    // Well ahead of the clock: more than a restart takes.
    expect(ahead - Math.floor(Date.now() / 1000)).toBeGreaterThan(QUICK_UPDATES / 2);
    await secondaryAnswers([ZONE, 'SOA'], (a) => serialOf(a) === ahead);

    expect(await gateway!.stop()).toBe(0);
    gateway = await startGateway();
    const restarted = serialOf(await dig(gatewayPort, [ZONE, 'SOA']))!;
    // The same content: the same serial (no transfer for nothing), never a lower one.
    expect(restarted).toBe(ahead);

    const add = signed(
      updateMessage({ updates: [rr(`after-restart.${ZONE}`, TYPE.A, CLASS.IN, 120, aData('192.0.2.77'))] }),
      kea,
    );
    expect(outcome(await udpExchange(gatewayPort, add)).rcode).toBe(0);
    const changed = serialOf(await dig(gatewayPort, [ZONE, 'SOA']))!;
    expect(changed).toBe(ahead + 1);
    await secondaryAnswers([ZONE, 'SOA'], (a) => serialOf(a) === changed);
    expect(await dig(secondary.port, [`after-restart.${ZONE}`, 'A'])).toMatch(
      /after-restart\.example\.com\.\s+120\s+IN\s+A\s+192\.0\.2\.77/,
    );
  });
});
