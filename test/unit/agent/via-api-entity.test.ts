// Setting a record through the API with the entry remembered from the last write: one call
// (service/dnsupdate) instead of a list and an update. An entry deleted outside is refused by
// the provider; the zone is then listed once and the record set as without one, never tried
// again in a loop. Against the sandbox in this process, counting its calls.
import { describe, expect, it } from 'vitest';
import { updateRecordViaApi } from '../../../src/agent/via-api.js';
import { ApiClient } from '../../../src/api/client.js';
import { createLogger } from '../../../src/lib/log.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();
const logged: string[] = [];
const logger = createLogger({ level: 'info', format: 'text', write: (t) => void logged.push(t) });
const client = () =>
  new ApiClient({ url: sandbox.url, user: sandbox.model.account.apiUser, password: sandbox.model.account.apiPassword });
const dns = () => sandbox.model.services.find((s) => s.name === 'example.com')!.dns;
const home = () => dns().find((e) => e.name === 'home.example.com' && e.type === 'A');
/** The calls made while `run` ran, by operation. */
async function callsOf<T>(run: () => Promise<T>): Promise<{ result: T; calls: Record<string, number> }> {
  const before = new Map(sandbox.calls);
  const result = await run();
  const calls: Record<string, number> = {};
  for (const [op, n] of sandbox.calls) if (n !== (before.get(op) ?? 0)) calls[op] = n - (before.get(op) ?? 0);
  return { result, calls };
}
const set = (address: string, remembered?: { zone: string; id: string }) =>
  callsOf(() => updateRecordViaApi(client(), 'example.com', 'home.example.com', 'A', address, logger, 300, remembered));
const inZone = (id: string) => ({ zone: 'example.com', id });

describe('the entry remembered', () => {
  it('without one: a list and an update, and the entry written is named for the next time', async () => {
    const { result, calls } = await set('81.0.2.15');
    expect(calls).toEqual({ 'service/dnslist': 1, 'service/dnsupdate': 1 });
    expect(result).toEqual({ changed: true, created: false, entity: inZone(home()!.entityID) });
  });

  it('with one: one update, no list', async () => {
    const { result, calls } = await set('81.0.2.16', inZone(home()!.entityID));
    expect(calls).toEqual({ 'service/dnsupdate': 1 });
    expect(home()).toMatchObject({ value: '81.0.2.16', ttl: '300' });
    expect(result).toEqual({ changed: true, created: false, entity: inZone(home()!.entityID) });
  });

  it('deleted outside: refused, then one list and a create; the new entry is named', async () => {
    const id = home()!.entityID;
    dns().splice(dns().indexOf(home()!), 1);
    const { result, calls } = await set('81.0.2.17', inZone(id));
    expect(calls).toEqual({ 'service/dnsupdate': 1, 'service/dnslist': 1, 'service/dnscreate': 1 });
    expect(home()).toMatchObject({ value: '81.0.2.17', ttl: '300' });
    expect(result).toEqual({ changed: true, created: true, entity: inZone(home()!.entityID) });
    expect(home()!.entityID).not.toBe(id);
  });

  it('an entry remembered in another zone (--service changed) is not used: listed instead', async () => {
    const { calls } = await set('81.0.2.18', { zone: 'example.net', id: home()!.entityID });
    expect(home()).toMatchObject({ value: '81.0.2.18' });
    expect(calls).toEqual({ 'service/dnslist': 1, 'service/dnsupdate': 1 });
  });
});
