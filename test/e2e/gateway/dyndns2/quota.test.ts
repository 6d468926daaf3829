// The dyndns2 door makes its changes through the same batch as RFC 2136 updates, with the same
// deps: a key's records quota (`quota "KEY" records N;`) holds there too, and what the door
// creates is in the owners ledger (owners.json), so it counts against the key wherever the key
// creates next. Past the quota the door answers `nohost`: the key may not hold that name, as for
// a name outside its grants (a router that retries gets the same answer, at no provider write).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useGateway, zoneLines } from '../../../helpers/use-gateway.js';
import { useSandbox } from '../../../helpers/use-sandbox.js';

/** The provider's operations that change a zone (src/api/endpoints/service.ts), as the sandbox counts them. */
const ZONE_WRITES = ['dnscreate', 'dnsupdate', 'dnsdelete', 'dnsrestore', 'dnssetzone', 'dnsdeleteall'].map(
  (a) => `service/${a}`,
);

const sandbox = useSandbox({ per: 'file' });
const door = useGateway(() => ({
  apiUrl: sandbox.url,
  door: {},
  keys: [{ name: 'router', rules: ['grant "router" subdomain lan.example.com AAAA;', 'quota "router" records 1;'] }],
}));
afterAll(async () => {
  expect(await door.stop()).toBe(0);
});

const writes = () => ZONE_WRITES.reduce((n, op) => n + (sandbox.calls.get(op) ?? 0), 0);
const ask = async (host: string, ip: string) => {
  const auth = `Basic ${Buffer.from(`router:${door.secret('router')}`).toString('base64')}`;
  return (
    await fetch(`${door.dyndns2}/nic/update?hostname=${host}&myip=${ip}`, { headers: { authorization: auth } })
  ).text();
};

describe('the dyndns2 door and key quotas', () => {
  it('refuses a key its second new name past `records 1` (nohost), writes nothing for it, and records the first in owners.json', async () => {
    expect(writes()).toBe(0);
    expect(await ask('a.lan.example.com', '2a00:1450::a')).toBe('good 2a00:1450::a\n');
    const writesBefore = writes();
    expect(writesBefore, 'the first name was written with an operation this test does not count').toBeGreaterThan(0);
    expect(await ask('b.lan.example.com', '2a00:1450::b')).toBe('nohost\n');
    expect(writes()).toBe(writesBefore);
    expect(zoneLines(sandbox, 'lan.example.com')).toEqual(['a.lan.example.com AAAA 2a00:1450::a']);
    // Changing the address of the name it holds is no growth: still allowed.
    expect(await ask('a.lan.example.com', '2a00:1450::aa')).toBe('good 2a00:1450::aa\n');
    const ledger = join(door.stateDir, 'gateway', 'owners.json');
    expect(existsSync(ledger), 'owners.json was never written').toBe(true);
    expect(readFileSync(ledger, 'utf8')).toMatch(/a\.lan\.example\.com/);
    await door.logged(/quota/);
  });
});
