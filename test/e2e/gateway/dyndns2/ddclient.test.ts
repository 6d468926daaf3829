// A real dyndns2 client: Debian's ddclient, `protocol=dyndns2` pointed at the gateway's door,
// over plain HTTP and over HTTPS with the test CA. It sets the A record, then (forced to send
// again) meets "nochg" with no provider call; a key for another name gets "nohost" and a wrong
// password "badauth", both of which ddclient reports as failures.
import { afterAll, describe, expect, it } from 'vitest';
import { useGateway, zoneLines, type GatewayHandle } from '../../../helpers/use-gateway.js';
import { useSandbox } from '../../../helpers/use-sandbox.js';
import { tlsFiles } from '../../../helpers/servers.js';
import { DDCLIENT, runDdclient, type DdclientRun } from '../../../helpers/ddclient.js';

const KEYS = [
  { name: 'router', rules: ['grant "router" name home.example.com A;'] },
  { name: 'office', rules: ['grant "office" name office.example.com A;'] },
];

async function ddclient(
  door: GatewayHandle,
  options: { tls: boolean; login: string; password: string; ip: string },
): Promise<DdclientRun> {
  return runDdclient([
    options.tls ? 'ssl=yes' : 'ssl=no',
    ...(options.tls ? [`ssl_ca_file=${tlsFiles().ca}`] : []),
    `use=ip, ip=${options.ip}`,
    'protocol=dyndns2',
    `server=${new URL(door.dyndns2).host}`,
    `login=${options.login}`,
    `password='${options.password}'`,
    'home.example.com',
  ]);
}

for (const tls of [false, true]) {
  describe.skipIf(!DDCLIENT)(
    `ddclient (protocol=dyndns2) against the gateway's door over ${tls ? 'HTTPS' : 'HTTP'}`,
    () => {
      const sandbox = useSandbox({ per: 'file' });
      const door = useGateway(() => (DDCLIENT ? { apiUrl: sandbox.url, door: { tls }, keys: KEYS } : undefined));
      afterAll(async () => {
        expect(await door.stop()).toBe(DDCLIENT ? 0 : null);
      });

      it('sets A ("good"), then gets "nochg" for the same address with no provider call', async () => {
        const ip = tls ? '81.0.2.51' : '81.0.2.50';
        const set = await ddclient(door, { tls, login: 'router', password: door.secret('router'), ip });
        expect(set.success, set.output).toBe(true);
        expect(set.output).toMatch(/good: IP address set to/);
        expect(zoneLines(sandbox, 'home.example.com')).toEqual([`home.example.com A ${ip}`]);
        const calls = await door.providerCalls();
        const again = await ddclient(door, { tls, login: 'router', password: door.secret('router'), ip });
        expect(again.output).toMatch(/nochg/);
        expect(again.failed, again.output).toBe(false);
        expect(await door.providerCalls()).toBe(calls);
      });

      it('a key for another name gets "nohost", which ddclient reports; a wrong password "badauth"; the zone unchanged', async () => {
        const before = zoneLines(sandbox, 'home.example.com');
        const other = await ddclient(door, { tls, login: 'office', password: door.secret('office'), ip: '81.0.2.52' });
        expect(other.failed, other.output).toBe(true);
        expect(other.output).toMatch(/nohost/);
        const wrong = await ddclient(door, { tls, login: 'router', password: 'not-the-secret', ip: '81.0.2.52' });
        expect(wrong.success, wrong.output).toBe(false);
        expect(wrong.output).toMatch(/badauth|401|Bad authorization/);
        expect(zoneLines(sandbox, 'home.example.com')).toEqual(before);
      });
    },
  );
}
