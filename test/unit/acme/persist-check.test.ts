// --check asks each authoritative server once and judges each answer as the CA would: valid only
// when every server that answered validates; a server that fails is said; none found or none
// answering is exit 4. --until takes a time, a duration or a Unix time, and never one that passed.
import { describe, expect, it } from 'vitest';
import { checkPersistRecord } from '../../../src/acme/persist-check.js';
import { persistRecordName, persistUntilOf } from '../../../src/acme/persist-target.js';
import type { NameServer, TxtLookup } from '../../../src/acme/propagation.js';
import { exitCodeOf } from '../../../src/lib/errors.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const NAME = '_validation-persist.example.com';
const ACCOUNT = 'https://acme.example/acme/acct/1';
const GOOD = `letsencrypt.org; accounturi=${ACCOUNT}`;
const NS1: NameServer = { host: '192.0.2.1', port: 53, name: 'ns1.example.net' };
const NS2: NameServer = { host: '192.0.2.2', port: 53, name: 'ns2.example.net' };

function lookup(answers: Record<string, string[] | Error>, servers: NameServer[] | Error = [NS1, NS2]): TxtLookup {
  return {
    authoritativeServers: async () => {
      if (servers instanceof Error) throw servers;
      return servers;
    },
    txtValues: async (server) => {
      const answer = answers[server.host]!;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}

const request = (l: TxtLookup, servers: NameServer[] = []) => ({
  name: NAME,
  zone: 'example.com',
  servers,
  question: { issuer: 'letsencrypt.org', accountUri: ACCOUNT, wildcard: false, now: 1_800_000_000 },
  lookup: l,
  timeoutMs: 5000,
  clock: new FakeClock(),
});

describe('acme persist --check', () => {
  it('is valid when every authoritative server gives a record that validates', async () => {
    const report = await checkPersistRecord(
      request(lookup({ '192.0.2.1': [GOOD], '192.0.2.2': ['v=spf1 -all', GOOD] })),
    );
    expect(report).toMatchObject({ valid: true, servers: [{ server: 'ns1.example.net (192.0.2.1:53)' }, {}] });
  });

  it('is not valid while one server still answers without it (not every server has it yet)', async () => {
    const report = await checkPersistRecord(request(lookup({ '192.0.2.1': [GOOD], '192.0.2.2': [] })));
    expect(report.valid).toBe(false);
    expect(report.servers[1]!.verdict).toMatchObject({
      valid: false,
      problem: 'no-record',
      reasons: ['no TXT record'],
    });
  });

  it('says which server could not be asked, and judges on the others', async () => {
    const report = await checkPersistRecord(
      request(lookup({ '192.0.2.1': [GOOD], '192.0.2.2': new Error('timed out') })),
    );
    expect(report.valid).toBe(true);
    expect(report.servers[1]).toEqual({ server: 'ns2.example.net (192.0.2.2:53)', error: 'timed out' });
  });

  it('asks the servers given instead of looking them up', async () => {
    const given = { host: '127.0.0.1', port: 5353 };
    const report = await checkPersistRecord(
      request(lookup({ '127.0.0.1': [GOOD] }, new Error('must not be asked')), [given]),
    );
    expect(report.servers.map((s) => s.server)).toEqual(['127.0.0.1:5353']);
  });

  it('is exit 4 when no server can be found or none answers', async () => {
    const none = checkPersistRecord(request(lookup({}, new Error('NXDOMAIN'))));
    await expect(none).rejects.toThrow(/name servers of example\.com cannot be found \(NXDOMAIN\)/);
    expect(exitCodeOf(await none.catch((e: unknown) => e))).toBe(4);
    const silent = checkPersistRecord(
      request(lookup({ '192.0.2.1': new Error('refused'), '192.0.2.2': new Error('timed out') })),
    );
    expect(exitCodeOf(await silent.catch((e: unknown) => e))).toBe(4);
  });
});

describe('acme persist arguments', () => {
  const now = Date.UTC(2026, 11, 2, 6, 0, 0);

  it('--until: a date (UTC), a time with its zone, a duration from now, or a Unix time', () => {
    expect(persistUntilOf('2027-06-30', now)).toBe(Date.UTC(2027, 5, 30) / 1000);
    expect(persistUntilOf('2027-06-30T12:00', now)).toBe(Date.UTC(2027, 5, 30, 12) / 1000);
    expect(persistUntilOf('2027-06-30T12:00:00+02:00', now)).toBe(Date.UTC(2027, 5, 30, 10) / 1000);
    expect(persistUntilOf('180d', now)).toBe(now / 1000 + 180 * 86_400);
    expect(persistUntilOf('1830297600', now)).toBe(1830297600);
    expect(persistUntilOf(undefined, now)).toBeUndefined();
  });

  it('--until: refuses a time that has passed, a bare number of seconds that is a past Unix time, and nonsense', () => {
    for (const bad of ['2026-12-01', '600', 'soon', '2027-13-01', '99999999999999999', '-5d', ''])
      expect(() => persistUntilOf(bad, now), bad).toThrow(/--until/);
  });

  it('--until: refuses a day or time that does not exist rather than rolling it over into the next month', () => {
    for (const bad of ['2027-02-30', '2027-02-29', '2027-04-31', '2027-06-30T24:30', '2027-06-30T12:60'])
      expect(() => persistUntilOf(bad, now), bad).toThrow(/--until/);
    expect(persistUntilOf('2028-02-29', now)).toBe(Date.UTC(2028, 1, 29) / 1000);
  });

  it('the record name: punycode, and the service from the registered domain unless given', () => {
    expect(persistRecordName('Bücher.Example.COM.', undefined)).toEqual({
      domain: 'xn--bcher-kva.example.com',
      name: '_validation-persist.xn--bcher-kva.example.com',
      service: 'example.com',
    });
    expect(persistRecordName('www.example.co.uk', 'example.co.uk').service).toBe('example.co.uk');
    expect(() => persistRecordName('www.example.com', 'other.com')).toThrow(/not inside the service/);
    expect(() => persistRecordName('_validation-persist.example.com', undefined)).toThrow(/give the domain/);
    expect(() => persistRecordName('exa mple.com', undefined)).toThrow();
  });
});
