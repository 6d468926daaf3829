// The dyndns2 door's answers in-process (door.ts, host-update.ts): the key from the
// credentials, the wrong-guess limit, one line per host name, the addresses given or the
// client's own, the hosts behind the router, and the answer each outcome of the update gets.
// Against an in-memory zone (update-batch.ts: alice and bob, each granted A records in
// example.com), no HTTP.
import { describe, expect, it } from 'vitest';
import { EDE } from '../../../../src/dns/wire/edns.js';
import { SOURCE_TRIES_PER_MINUTE } from '../../../../src/gateway/limits/guess-limit.js';
import type { Outcome, UpdateRequest } from '../../../../src/gateway/update/batch-deps.js';
import { CLASS } from '../../../../src/gateway/update/message.js';
import { RCODE_UPDATE } from '../../../../src/gateway/update/rules.js';
import { A, as, CLIENT, door } from '../../../helpers/dyndns2-door.js';

describe('credentials', () => {
  it('asks for credentials (401, the connection kept) when none are given', async () => {
    const w = await door();
    expect(await w.ask('hostname=home.example.com&myip=81.0.2.1')).toEqual({
      status: 401,
      body: 'badauth\n',
      close: false,
    });
    expect(w.refusals()).toEqual([`badauth request with no credentials, from ${CLIENT}: dyndns2: no credentials`]);
    expect(w.deps.counts.get('badauth')).toBe(1);
  });

  it("refuses a key's wrong password, naming the key, and closes the connection", async () => {
    const w = await door();
    const answer = await w.ask('hostname=home.example.com&username=alice&password=wrong');
    expect(answer).toEqual({ status: 401, body: 'badauth\n', close: true });
    expect(w.refusals()).toEqual([`badauth request key alice, from ${CLIENT}: dyndns2: a wrong password`]);
    expect(w.zone.writes()).toEqual([]);
  });

  it('does not show a user name that is no key (it may be a password typed in the wrong field)', async () => {
    const w = await door();
    const typo = w.secret('alice');
    await w.ask(`hostname=home.example.com&username=${encodeURIComponent(typo)}&password=x`);
    expect(w.refusals()).toEqual([
      `badauth request with bad credentials, from ${CLIENT}: ` +
        'dyndns2: a user name that is no key of the keys file (not shown)',
    ]);
  });

  it('refuses a source past its wrong tries with 429 before the password is looked at, even a right one', async () => {
    const w = await door();
    for (let i = 0; i < SOURCE_TRIES_PER_MINUTE; i++)
      expect(await w.ask('hostname=home.example.com&username=alice&password=wrong')).toMatchObject({ status: 401 });
    const right = await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'));
    expect(right).toEqual({ status: 429, body: 'badauth\n', close: true });
    expect(w.deps.counts.get('badauth')).toBe(SOURCE_TRIES_PER_MINUTE + 1);
    expect(w.refusals().at(-1)).toMatch(
      /^badauth request key alice, from 81\.0\.2\.200: dyndns2: refused before the password was looked at: too many wrong passwords from 81\.0\.2\.200/,
    );
    expect(w.zone.writes()).toEqual([]);
    // Another source is not refused.
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'), '81.0.2.201')).toMatchObject({
      status: 200,
    });
  });

  it('a request without credentials is no wrong try; a right password clears the key’s wrong tries', async () => {
    const w = await door();
    for (let i = 0; i < 2 * SOURCE_TRIES_PER_MINUTE; i++) await w.ask('hostname=home.example.com');
    const wrong = 'hostname=home.example.com&username=alice&password=wrong';
    for (let i = 0; i < SOURCE_TRIES_PER_MINUTE - 1; i++) await w.ask(wrong);
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'))).toMatchObject({ status: 200 });
    await w.ask(wrong);
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'))).toMatchObject({ status: 200 });
  });

  it('an unknown user name counts as a wrong try too', async () => {
    const w = await door();
    for (let i = 0; i < SOURCE_TRIES_PER_MINUTE; i++) await w.ask('hostname=home.example.com&username=eve&password=x');
    const answer = await w.ask('hostname=home.example.com&username=eve&password=x');
    expect(answer.status).toBe(429);
    expect(w.refusals().at(-1)).toMatch(/^badauth request with bad credentials, from 81\.0\.2\.200: dyndns2: refused/);
  });
});

describe('host names and addresses', () => {
  it('sets the address given and answers good with it; the same again is nochg at once, without a call', async () => {
    const w = await door();
    const query = as(w, 'hostname=home.example.com&myip=81.0.2.1');
    const first = w.ask(query);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toEqual({ status: 200, body: 'good 81.0.2.1\n' });
    expect(w.zone.held()).toEqual(['home.example.com A 81.0.2.1']);
    const calls = w.zone.calls.length;
    const again = w.ask(query);
    expect(again).toEqual({ status: 200, body: 'nochg 81.0.2.1\n' });
    expect(w.zone.calls.length).toBe(calls);
    expect(Object.fromEntries(w.deps.counts)).toEqual({ good: 1, nochg: 1 });
  });

  it("keeps the TTL a name has and gives a new record the provider's default (no TTL sent)", async () => {
    const w = await door({ records: [A('home.example.com', '81.0.2.9')] });
    await w.ask(as(w, 'hostname=home.example.com,new.example.com&myip=81.0.2.1'));
    expect(w.zone.live.map((r) => `${r.name} ${r.ttl ?? '-'} ${r.value}`).sort()).toEqual([
      'home.example.com 600 81.0.2.1',
      'new.example.com - 81.0.2.1',
    ]);
  });

  it("keeps the provider's default TTL a record has as the default, updated in place in one call", async () => {
    const w = await door({
      records: [
        { name: 'home.example.com', type: 'A', value: '81.0.2.9' },
        { name: 'three.example.com', type: 'A', ttl: 300, value: '81.0.2.9' },
      ],
    });
    expect(await w.ask(as(w, 'hostname=home.example.com,three.example.com&myip=81.0.2.1'))).toEqual({
      status: 200,
      body: 'good 81.0.2.1\ngood 81.0.2.1\n',
    });
    expect(w.zone.live.map((r) => `${r.name} ${r.ttl ?? '-'} ${r.value}`).sort()).toEqual([
      'home.example.com - 81.0.2.1',
      'three.example.com 300 81.0.2.1',
    ]);
    expect(w.zone.writes()).toEqual([
      'update e1 home.example.com A 81.0.2.1',
      'update e2 three.example.com A 81.0.2.1',
    ]);
  });

  it('reads a record the view holds in another spelling as the same address (nochg)', async () => {
    const w = await door({
      keysFile: 'grant "alice" zonesub AAAA;\n',
      records: [{ name: 'home.example.com', type: 'AAAA', ttl: 600, value: '2A01:4F8:0::1' }],
    });
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=2a01:4f8::1'))).toEqual({
      status: 200,
      body: 'nochg 2a01:4f8::1\n',
    });
  });

  it('answers one line per host name, in the order asked, each with its own code', async () => {
    const w = await door({ records: [A('same.example.com', '81.0.2.1')] });
    const answer = await w.ask(
      as(w, 'hostname=new.example.com,same.example.com,bad,home.other.org,nope.example.com&myip=81.0.2.1'),
    );
    expect(answer).toEqual({
      status: 200,
      body: ['good 81.0.2.1', 'nochg 81.0.2.1', 'notfqdn', 'nohost', 'good 81.0.2.1', ''].join('\n'),
    });
    expect(w.refusals()).toEqual([
      `notfqdn update key alice, from ${CLIENT}: dyndns2: "bad" is not a full host name`,
      `nohost update key alice, from ${CLIENT}: dyndns2: home.other.org is in no zone this gateway serves (example.com)`,
    ]);
    // The two new names went in one message: one reading of the zone for both.
    expect(w.zone.writes()).toEqual(['create new.example.com A 81.0.2.1', 'create nope.example.com A 81.0.2.1']);
  });

  it('refuses a request naming no host name, or too many', async () => {
    const w = await door();
    expect(await w.ask(as(w, 'myip=81.0.2.1'))).toEqual({ status: 200, body: 'notfqdn\n' });
    expect(await w.ask(as(w, 'hostname=&myip=81.0.2.1'))).toEqual({ status: 200, body: 'notfqdn\n' });
    const many = Array.from({ length: 21 }, (_, i) => `h${i}.example.com`).join(',');
    expect(await w.ask(as(w, `hostname=${many}&myip=81.0.2.1`))).toEqual({ status: 200, body: 'numhost\n' });
    expect(w.refusals()).toEqual([
      `notfqdn update key alice, from ${CLIENT}: dyndns2: the request names no hostname`,
      `notfqdn update key alice, from ${CLIENT}: dyndns2: "" is not a full host name`,
      `numhost update key alice, from ${CLIENT}: dyndns2: more host names than one request may name (20)`,
    ]);
    expect(Object.fromEntries(w.deps.counts)).toEqual({ notfqdn: 2, numhost: 1 });
  });

  it('uses the address the request comes from when none is given, an IPv4-mapped one as IPv4', async () => {
    const w = await door({ keysFile: 'grant "alice" zonesub AAAA;\n' });
    expect(await w.ask(as(w, 'hostname=v4.example.com'), '::ffff:81.0.2.7')).toEqual({
      status: 200,
      body: 'good 81.0.2.7\n',
    });
    expect(await w.ask(as(w, 'hostname=v6.example.com'), '2a01:4f8::7')).toEqual({
      status: 200,
      body: 'good 2a01:4f8::7\n',
    });
    expect(w.zone.held()).toEqual(['v4.example.com A 81.0.2.7', 'v6.example.com AAAA 2a01:4f8::7']);
  });

  it('sets both addresses given, and shows both', async () => {
    const w = await door({ keysFile: 'grant "alice" zonesub AAAA;\n' });
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1,2a01:4f8::1'))).toEqual({
      status: 200,
      body: 'good 81.0.2.1,2a01:4f8::1\n',
    });
    expect(w.zone.held()).toEqual(['home.example.com A 81.0.2.1', 'home.example.com AAAA 2a01:4f8::1']);
  });

  it('refuses an address that is not public, given or the client’s own, unless allowed', async () => {
    const w = await door();
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=10.0.0.1'))).toEqual({
      status: 200,
      body: 'dnserr\n',
    });
    expect(await w.ask(as(w, 'hostname=home.example.com'), '192.168.1.2')).toEqual({
      status: 200,
      body: 'dnserr\n',
    });
    const tail = 'the gateway sets only public addresses unless started with --allow-private-ip';
    expect(w.refusals()).toEqual([
      `dnserr update key alice, from ${CLIENT}: dyndns2: home.example.com: the address 10.0.0.1, ` +
        `which is not public (private (RFC 1918)); ${tail}`,
      'dnserr update key alice, from 192.168.1.2: dyndns2: home.example.com: no address given, and the ' +
        `request comes from 192.168.1.2, which is not public (private (RFC 1918)); ${tail}`,
    ]);
    expect(w.zone.writes()).toEqual([]);
    const open = await door({ allowPrivateIp: true });
    expect(await open.ask(as(open, 'hostname=home.example.com&myip=10.0.0.1'))).toEqual({
      status: 200,
      body: 'good 10.0.0.1\n',
    });
  });

  it('refuses an address it cannot read, for every host', async () => {
    const w = await door();
    expect(await w.ask(as(w, 'hostname=a.example.com,b.example.com&myip=81.0.2.1,81.0.2.2'))).toEqual({
      status: 200,
      body: 'dnserr\ndnserr\n',
    });
    expect(w.refusals()[0]).toBe(
      `dnserr update key alice, from ${CLIENT}: dyndns2: a.example.com: two different IPv4 addresses given ` +
        '(81.0.2.1 and 81.0.2.2)',
    );
  });

  it('never logs a password or a secret a client put where a name goes', async () => {
    const w = await door();
    const secret = w.secret('alice');
    const other = w.secret('bob');
    const escaped = encodeURIComponent(encodeURIComponent(secret));
    await w.ask(
      as(w, `hostname=${encodeURIComponent(secret)},${encodeURIComponent(other)}.x,${escaped}&myip=81.0.2.1`),
    );
    const logged = w.refusals().join('\n');
    expect(logged).not.toContain(secret);
    expect(logged).not.toContain(other);
    expect(logged).not.toContain(encodeURIComponent(secret));
    expect(w.refusals()).toEqual([
      `notfqdn update key alice, from ${CLIENT}: dyndns2: "***" is not a full host name`,
      `notfqdn update key alice, from ${CLIENT}: dyndns2: "***.x" is not a full host name`,
      `notfqdn update key alice, from ${CLIENT}: dyndns2: "***" is not a full host name`,
    ]);
  });
});

describe('what the key and the zone allow', () => {
  it('refuses a type the key may not change, a CNAME, and a zone not read yet', async () => {
    const w = await door({ records: [{ name: 'alias.example.com', type: 'CNAME', ttl: 600, value: 'x.example.net' }] });
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=2a01:4f8::1'))).toEqual({
      status: 200,
      body: 'nohost\n',
    });
    expect(await w.ask(as(w, 'hostname=alias.example.com&myip=81.0.2.1'))).toEqual({
      status: 200,
      body: 'dnserr\n',
    });
    expect(w.refusals()).toEqual([
      `nohost update key alice, from ${CLIENT}: dyndns2: the key alice may not change home.example.com AAAA`,
      `dnserr update key alice, from ${CLIENT}: dyndns2: alias.example.com is a CNAME; an address record cannot be ` +
        'added beside it',
    ]);
    w.deps.views.index = () => undefined;
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'))).toEqual({ status: 200, body: '911\n' });
    expect(w.refusals().at(-1)).toBe(
      `911 update key alice, from ${CLIENT}: dyndns2: example.com has not been read from the provider yet`,
    );
    expect(w.zone.writes()).toEqual([]);
  });

  it('answers abuse when the call budget is spent, and 911 while the gateway stops, without a call', async () => {
    const w = await door();
    w.spend();
    const calls = w.zone.calls.length;
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'))).toEqual({ status: 200, body: 'abuse\n' });
    expect(w.refusals().at(-1)).toMatch(/dyndns2: the call budget \(--max-calls-per-hour\) is spent$/);
    const stopping = await door();
    stopping.deps.stopping = () => true;
    expect(await stopping.ask(as(stopping, 'hostname=home.example.com&myip=81.0.2.1'))).toEqual({
      status: 200,
      body: '911\n',
    });
    expect(stopping.refusals().at(-1)).toMatch(/dyndns2: the gateway is stopping; send the update again$/);
    expect(w.zone.calls.length).toBe(calls);
  });

  it('answers abuse when the budget cannot afford the update, weighed before anything is read', async () => {
    const w = await door();
    const weighed: number[] = [];
    w.deps.affordCalls = (calls) => {
      weighed.push(calls);
      return 'not enough calls left';
    };
    const calls = w.zone.calls.length;
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'))).toEqual({ status: 200, body: 'abuse\n' });
    expect(w.zone.calls.length).toBe(calls);
    expect(w.refusals().at(-1)).toMatch(/dyndns2: not enough calls left$/);
    // A reading and a create, each counted twice (the writes' undoing, the reading again).
    expect(weighed).toEqual([2 * 1 + 2 * 1]);
  });

  it('answers dnserr when the provider refuses the value, 911 when it fails', async () => {
    const w = await door();
    w.zone.onWrite = () => 'refused';
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'))).toEqual({ status: 200, body: 'dnserr\n' });
    w.zone.onWrite = () => 'failed';
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'))).toEqual({ status: 200, body: '911\n' });
    expect(w.zone.held()).toEqual([]);
  });

  it("answers nohost when the key's records quota is full", async () => {
    const w = await door({ keysFile: 'quota "alice" records 1;\n' });
    expect(await w.ask(as(w, 'hostname=one.example.com&myip=81.0.2.1'))).toMatchObject({ body: 'good 81.0.2.1\n' });
    expect(await w.ask(as(w, 'hostname=two.example.com&myip=81.0.2.1'))).toEqual({ status: 200, body: 'nohost\n' });
    expect(w.refusals().at(-1)).toMatch(/may hold at most 1 /);
  });
});

describe('what is already so, and what others keep', () => {
  it('replaces a round robin that holds the address among others (good, not nochg)', async () => {
    const w = await door({ records: [A('home.example.com', '81.0.2.1'), A('home.example.com', '81.0.2.2')] });
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'))).toEqual({
      status: 200,
      body: 'good 81.0.2.1\n',
    });
    expect(w.zone.held()).toEqual(['home.example.com A 81.0.2.1']);
  });

  it('refuses a record the agent keeps (--host) as nohost, naming who keeps it; a value already so is nochg', async () => {
    const w = await door({ records: [A('home.example.com', '81.0.2.1')] });
    w.deps.hosts = ['home.example.com'];
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.2'))).toEqual({ status: 200, body: 'nohost\n' });
    expect(w.refusals().at(-1)).toMatch(
      /^nohost update key alice, from 81\.0\.2\.200: dyndns2: home\.example\.com A is kept by the ddedge agent; /,
    );
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'))).toEqual({
      status: 200,
      body: 'nochg 81.0.2.1\n',
    });
    expect(w.zone.writes()).toEqual([]);
  });

  it("keeps the TTL of the name's record of the type changed, not of another type", async () => {
    const w = await door({
      keysFile: 'grant "alice" zonesub AAAA;\n',
      records: [
        { name: 'home.example.com', type: 'AAAA', ttl: 900, value: '2a01:4f8::1' },
        { name: 'home.example.com', type: 'A', ttl: 600, value: '81.0.2.9' },
      ],
    });
    await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'));
    expect(w.zone.live.map((r) => `${r.type} ${r.ttl} ${r.value}`).sort()).toEqual([
      'A 600 81.0.2.1',
      'AAAA 900 2a01:4f8::1',
    ]);
  });

  it('answers nochg only when every address asked is already so, each compared with its own type', async () => {
    const w = await door({
      keysFile: 'grant "alice" zonesub AAAA;\n',
      records: [
        { name: 'home.example.com', type: 'AAAA', ttl: 900, value: '2a01:4f8::1' },
        A('home.example.com', '81.0.2.1'),
      ],
    });
    expect(w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'))).toEqual({ status: 200, body: 'nochg 81.0.2.1\n' });
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1,2a01:4f8::2'))).toEqual({
      status: 200,
      body: 'good 81.0.2.1,2a01:4f8::2\n',
    });
    expect(w.zone.held()).toEqual(['home.example.com A 81.0.2.1', 'home.example.com AAAA 2a01:4f8::2']);
  });

  it("weighs only the records of the types asked: a name's other records stay", async () => {
    const w = await door({
      keysFile: 'grant "alice" zonesub AAAA;\n',
      records: [
        { name: 'home.example.com', type: 'AAAA', ttl: 900, value: '2a01:4f8::1' },
        A('home.example.com', '81.0.2.9'),
      ],
    });
    const weighed: [number, boolean | undefined][] = [];
    w.deps.affordCalls = (calls, forUpdate) => {
      weighed.push([calls, forUpdate]);
      return 'not enough calls left';
    };
    await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'));
    // One reading, one write (the A changed), each counted twice; weighed as an update's.
    expect(weighed).toEqual([[2 * 1 + 2 * 1, true]]);
  });

  it('weighs the update of several hosts at one reading and their writes, each counted twice', async () => {
    const w = await door({ records: [A('home.example.com', '81.0.2.9')] });
    const weighed: number[] = [];
    w.deps.affordCalls = (calls) => {
      weighed.push(calls);
      return 'not enough calls left';
    };
    await w.ask(as(w, 'hostname=home.example.com,new.example.com&myip=81.0.2.1'));
    expect(weighed).toEqual([2 * 1 + 2 * 2]);
  });
});

describe('the answer to each outcome of the update', () => {
  it("answers abuse when the key's share of the calls cannot afford the update, before anything is read", async () => {
    const w = await door({ budget: 1000, shares: true, keysFile: 'quota "alice" calls 3;\n' });
    const calls = w.zone.calls.length;
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'))).toEqual({ status: 200, body: 'abuse\n' });
    expect(w.refusals().at(-1)).toMatch(/dyndns2: the key alice has spent its share of the provider calls/);
    expect(w.zone.calls.length).toBe(calls);
    // Bob's share is whole.
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1', 'bob'))).toMatchObject({ status: 200 });
  });

  it('answers abuse when a write fails and the budget is spent meanwhile', async () => {
    const w = await door();
    w.zone.onWrite = () => {
      w.spend();
      return 'failed';
    };
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'))).toEqual({ status: 200, body: 'abuse\n' });
  });

  const outcomes: [string, Outcome, string][] = [
    ['made', { rcode: RCODE_UPDATE.NOERROR, ede: 0, why: '', changed: true }, 'good 81.0.2.1'],
    ['already so at the provider', { rcode: RCODE_UPDATE.NOERROR, ede: 0, why: '', changed: false }, 'nochg 81.0.2.1'],
    [
      'a share spent',
      { rcode: RCODE_UPDATE.REFUSED, ede: 0, why: 'the key alice has spent its share of the provider calls (…)' },
      'abuse',
    ],
    [
      'a records quota',
      { rcode: RCODE_UPDATE.REFUSED, ede: 0, why: 'the key alice may hold at most 12 records in example.com' },
      'nohost',
    ],
    ['refused by the provider', { rcode: RCODE_UPDATE.REFUSED, ede: 0, why: 'invalid value' }, 'dnserr'],
    ['refused as not ready', { rcode: RCODE_UPDATE.REFUSED, ede: EDE.NOT_READY, why: 'updates waiting' }, '911'],
    [
      'the budget spent',
      { rcode: RCODE_UPDATE.SERVFAIL, ede: 0, why: 'the budget of 600 provider calls an hour is spent' },
      'abuse',
    ],
    ['a failure', { rcode: RCODE_UPDATE.SERVFAIL, ede: 0, why: 'the provider failed' }, '911'],
  ];
  it.each(outcomes)('an update %s is answered %s', async (_what, outcome, line) => {
    const w = await door();
    w.deps.updates.enqueue = () => Promise.resolve(outcome);
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'))).toEqual({ status: 200, body: `${line}\n` });
    if (!/^(good|nochg)/.test(line))
      expect(w.refusals()).toEqual([`${line} update key alice, from ${CLIENT}: dyndns2: ${outcome.why}`]);
  });

  it('holds the update among those in flight until it is answered', async () => {
    const w = await door();
    const inFlight = new Set<Promise<unknown>>();
    w.deps.inFlight = inFlight;
    let release!: () => void;
    w.zone.hold = new Promise<void>((resolve) => (release = resolve));
    const answer = w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'));
    expect(inFlight.size).toBe(1);
    release();
    expect(await answer).toEqual({ status: 200, body: 'good 81.0.2.1\n' });
    await Promise.resolve();
    expect(inFlight.size).toBe(0);
  });

  it('sends the updates of one request in one zone as one message, each add keeping the TTL its name has', async () => {
    const w = await door({ records: [A('home.example.com', '81.0.2.9')] });
    const sent: UpdateRequest[] = [];
    const enqueue = w.deps.updates.enqueue.bind(w.deps.updates);
    w.deps.updates.enqueue = (zone, update) => {
      sent.push(update);
      return enqueue(zone, update);
    };
    await w.ask(as(w, 'hostname=home.example.com,new.example.com&myip=81.0.2.1'));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.key).toBe('alice');
    expect(sent[0]!.client).toBe(CLIENT);
    expect(sent[0]!.message.zone.name).toBe('example.com');
    expect(sent[0]!.message.prerequisites).toEqual([]);
    // As a client without EDNS sends it.
    expect(sent[0]!.message.edns).toBe(false);
    expect(sent[0]!.message.updates.map((u) => [u.name, u.class, u.ttlAsHeld ?? false, u.data?.value])).toEqual([
      ['home.example.com', CLASS.ANY, false, undefined],
      ['home.example.com', CLASS.IN, true, '81.0.2.1'],
      ['new.example.com', CLASS.ANY, false, undefined],
      ['new.example.com', CLASS.IN, true, '81.0.2.1'],
    ]);
  });
});

describe('hosts behind the router (ip6lanprefix)', () => {
  const behind = (prefixHosts: [string, string][]) => door({ keysFile: 'grant "alice" zonesub AAAA;\n', prefixHosts });

  it('sets each --prefix-host the key may change to the LAN prefix joined to its identifier, logged, not answered', async () => {
    const w = await behind([
      ['nas.example.com', '::1e2:3ff:fe4a:5b6c'],
      ['tv.example.com', '::2'],
      ['elsewhere.example.org', '::3'],
    ]);
    const answer = await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1&ip6lanprefix=2a01:4f8:1:2::/56'));
    expect(answer).toEqual({ status: 200, body: 'good 81.0.2.1\n' });
    expect(w.zone.held()).toEqual([
      'home.example.com A 81.0.2.1',
      'nas.example.com AAAA 2a01:4f8:1:2:1e2:3ff:fe4a:5b6c',
      'tv.example.com AAAA 2a01:4f8:1:2::2',
    ]);
    expect(w.debug).toContain(
      'gateway: dyndns2: nas.example.com AAAA 2a01:4f8:1:2:1e2:3ff:fe4a:5b6c (behind the router): good',
    );
    expect(w.refusals()).toEqual([]);
    // The same prefix again: nothing to change, nothing to wait for.
    const again = w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1&ip6lanprefix=2a01:4f8:1:2::/56'));
    expect(again).toEqual({ status: 200, body: 'nochg 81.0.2.1\n' });
    await Promise.resolve();
    expect(w.debug).toContain('gateway: dyndns2: tv.example.com AAAA 2a01:4f8:1:2::2 (behind the router): nochg');
  });

  it('changes no host behind the router when the request sends no prefix', async () => {
    const w = await behind([['nas.example.com', '::9']]);
    expect(await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1'))).toEqual({
      status: 200,
      body: 'good 81.0.2.1\n',
    });
    expect(w.zone.held()).toEqual(['home.example.com A 81.0.2.1']);
  });

  it('leaves a host the request names itself, and a host the key may not change, alone', async () => {
    const w = await behind([['home.example.com', '::9']]);
    const bob = await door({ prefixHosts: [['nas.example.com', '::9']] });
    await w.ask(as(w, 'hostname=home.example.com&myip=2a01:4f8:1:2::1&ip6lanprefix=2a01:4f8:1:2::/64'));
    await bob.ask(as(bob, 'hostname=home.example.com&myip=81.0.2.1&ip6lanprefix=2a01:4f8:1:2::/64', 'bob'));
    expect(w.zone.held()).toEqual(['home.example.com AAAA 2a01:4f8:1:2::1']);
    expect(bob.zone.held()).toEqual(['home.example.com A 81.0.2.1']);
    expect(bob.refusals()).toEqual([]);
  });

  it('logs a host behind the router whose address is refused, and a prefix it cannot read', async () => {
    const w = await behind([['nas.example.com', '::9']]);
    await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1&ip6lanprefix=fd00:1:2:3::/64'));
    await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1&ip6lanprefix=2a01:4f8::/40'));
    w.zone.onWrite = (write) => (write.type === 'AAAA' ? 'refused' : undefined);
    await w.ask(as(w, 'hostname=home.example.com&myip=81.0.2.1&ip6lanprefix=2a01:4f8:1:2::/64'));
    expect(w.refusals()).toEqual([
      `dnserr update key alice, from ${CLIENT}: dyndns2: nas.example.com AAAA fd00:1:2:3::9 (behind the router): ` +
        'fd00:1:2:3::9 is not public (unique local (RFC 4193))',
      `ip6lanprefix update key alice, from ${CLIENT}: dyndns2: ip6lanprefix "2a01:4f8::/40": the prefix length ` +
        'must be a whole number from 48 to 64 (decimal); no host behind the router was changed',
      expect.stringMatching(
        /^dnserr update key alice, from 81\.0\.2\.200: dyndns2: nas\.example\.com AAAA 2a01:4f8:1:2::9 \(behind the router\): ./,
      ),
    ]);
    expect(w.zone.held()).toEqual(['home.example.com A 81.0.2.1']);
  });
});
