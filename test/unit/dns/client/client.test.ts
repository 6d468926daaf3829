import { mkdtempSync, writeFileSync } from 'node:fs';
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../src/lib/errors.js';
import {
  DnsError,
  findAuthoritativeServers,
  parseDnsServer,
  queryDns,
  systemResolvers,
} from '../../../../src/dns/client/index.js';
import { encodeMessage } from '../../../../src/dns/wire/message.js';
import type { DnsRecord } from '../../../../src/dns/wire/types.js';
import { FakeClock, until } from '../../../helpers/fake-clock.js';
import { answerTo, framed, startHostileDns, type HostileDns } from '../../../helpers/hostile-dns.js';

const servers: HostileDns[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function start(...args: Parameters<typeof startHostileDns>): Promise<HostileDns> {
  const server = await startHostileDns(...args);
  servers.push(server);
  return server;
}

const TXT: DnsRecord = {
  name: '_acme-challenge.example.com',
  type: 'TXT',
  ttl: 60,
  value: ['a'.repeat(255), 'b'.repeat(255), 'c'.repeat(90)],
};

async function rejection(promise: Promise<unknown>): Promise<DnsError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DnsError);
  expect((error as DnsError).exitCode).toBe(4);
  return error as DnsError;
}

describe('queryDns', () => {
  it('asks with a random ID and the question, and returns the sections', async () => {
    const ids = new Set<number>();
    const server = await start({
      udp: (q) => {
        ids.add(q.id);
        expect(q.recursionDesired).toBe(false);
        return answerTo(q, [{ name: q.questions[0]!.name, type: 'A', ttl: 60, value: '192.0.2.10' }], {
          authority: [{ name: 'example.com', type: 'NS', ttl: 60, value: 'ns1.example.com' }],
        });
      },
    });
    for (let i = 0; i < 5; i++) {
      const answer = await queryDns(server, 'Example.COM.', 'A', { timeoutMs: 2000, recursionDesired: false });
      expect(answer).toMatchObject({
        rcode: 0,
        authoritative: true,
        truncated: false,
        transport: 'udp',
        answers: [{ name: 'Example.COM', type: 'A', value: '192.0.2.10' }],
        authority: [{ type: 'NS', value: 'ns1.Example.COM' }],
      }); // compression takes the question's case
    }
    expect(ids.size).toBeGreaterThan(1);
  });

  it('returns NXDOMAIN as an answer, not an error', async () => {
    const server = await start({ udp: (q) => answerTo(q, [], { rcode: 3 }) });
    expect((await queryDns(server, 'nope.example.com', 'TXT', { timeoutMs: 2000 })).rcode).toBe(3);
  });

  it('times out on a server that never answers, after re-sending, within the deadline', async () => {
    const server = await start({ udp: () => undefined });
    const clock = new FakeClock();
    const query = rejection(queryDns(server, 'example.com', 'A', { timeoutMs: 900, clock }));
    // Sent, then re-sent every 300 ms (a third of the deadline), three sends in all.
    await until(() => server.udpQueries === 1);
    await clock.advanceAsync(300);
    await until(() => server.udpQueries === 2);
    await clock.advanceAsync(300);
    await until(() => server.udpQueries === 3);
    await clock.advanceAsync(300);
    const error = await query;
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/no answer over UDP to example.com A at 127.0.0.1:\d+ within 900 ms/);
    expect(server.udpQueries).toBe(3);
    expect(clock.pending).toBe(0);
  });

  it('ignores answers with another ID (spoofs) and says so when the deadline passes', async () => {
    const server = await start({ udp: (q) => answerTo({ ...q, id: (q.id + 1) & 0xffff }, []) });
    const error = await rejection(queryDns(server, 'example.com', 'A', { timeoutMs: 600 }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/answers? with another ID ignored/);
  });

  it('takes the right answer after a spoof', async () => {
    const server = await start({
      udp: (q) => [
        answerTo({ ...q, id: q.id ^ 0x5555 }, [{ name: 'example.com', type: 'A', ttl: 1, value: '198.51.100.1' }]),
        answerTo(q, [{ name: 'example.com', type: 'A', ttl: 1, value: '192.0.2.10' }]),
      ],
    });
    expect((await queryDns(server, 'example.com', 'A', { timeoutMs: 2000 })).answers[0]!.value).toBe('192.0.2.10');
  });

  it('retries over TCP when the UDP answer is truncated', async () => {
    const server = await start({
      udp: (q) => answerTo(q, [], { truncated: true }),
      tcp: (q) => framed(answerTo(q, [TXT])),
    });
    const answer = await queryDns(server, TXT.name, 'TXT', { timeoutMs: 2000 });
    expect(answer).toMatchObject({ transport: 'tcp', truncated: false, answers: [TXT] });
    expect([server.udpQueries, server.tcpQueries]).toEqual([1, 1]);
  });

  it('keeps one deadline over UDP and the TCP retry', async () => {
    let answerUdp!: () => void;
    const udpHeld = new Promise<void>((resolve) => (answerUdp = resolve));
    const truncatedLater = async (q: Parameters<typeof answerTo>[0]) => {
      await udpHeld;
      return answerTo(q, [], { truncated: true });
    };
    const server = await start({ udp: truncatedLater, tcp: () => undefined });
    const clock = new FakeClock();
    let settled = false;
    const query = rejection(queryDns(server, 'example.com', 'TXT', { timeoutMs: 1500, clock }));
    void query.finally(() => (settled = true));
    // The truncated UDP answer comes 1000 ms into the deadline; TCP has what is left of it.
    await until(() => server.udpQueries === 1);
    await clock.advanceAsync(1000);
    answerUdp();
    await until(() => server.tcpQueries === 1);
    await clock.advanceAsync(499);
    expect(settled).toBe(false);
    await clock.advanceAsync(1);
    expect((await query).message).toMatch(/no answer over TCP/);
  });

  it('refuses a cut-off answer, one to another question, and one that is not a response', async () => {
    const cut = await start({ udp: (q) => answerTo(q, [TXT]).subarray(0, 60) });
    expect((await rejection(queryDns(cut, TXT.name, 'TXT', { timeoutMs: 2000 }))).message).toMatch(
      /malformed: .*(runs past|cut off|larger)/,
    );
    const other = await start({
      udp: (q) => answerTo({ ...q, questions: [{ name: 'evil.example', type: 16, class: 1 }] }, []),
    });
    expect((await rejection(queryDns(other, TXT.name, 'TXT', { timeoutMs: 2000 }))).message).toMatch(
      /echoes another question \(evil.example TXT\)/,
    );
    const query = await start({ udp: (q) => encodeMessage({ id: q.id, questions: q.questions }) });
    expect((await rejection(queryDns(query, TXT.name, 'TXT', { timeoutMs: 2000 }))).message).toMatch(/not a response/);
  });

  it('refuses a TCP answer that is cut off or carries another ID', async () => {
    const cut = await start({
      udp: (q) => answerTo(q, [], { truncated: true }),
      tcp: (q) => framed(answerTo(q, [TXT])).subarray(0, 100),
    });
    const cutError = await rejection(queryDns(cut, TXT.name, 'TXT', { timeoutMs: 1000 }));
    expect(cutError.kind).toBe('timeout'); // the server keeps the connection open: nothing more comes
    const hangsUp = await start({
      udp: (q) => answerTo(q, [], { truncated: true }),
      tcp: (q) => framed(answerTo(q, [TXT])).subarray(0, 100),
      closeTcp: true,
    });
    expect((await rejection(queryDns(hangsUp, TXT.name, 'TXT', { timeoutMs: 1000 }))).message).toMatch(
      /TCP answer .* is cut off \(100 bytes, then the connection closed\)/,
    );
    const silent = await start({ udp: (q) => answerTo(q, [], { truncated: true }), closeTcp: true });
    expect((await rejection(queryDns(silent, TXT.name, 'TXT', { timeoutMs: 1000 }))).kind).toBe('connection');
    const spoof = await start({
      udp: (q) => answerTo(q, [], { truncated: true }),
      tcp: (q) => framed(answerTo({ ...q, id: q.id ^ 1 }, [TXT])),
    });
    expect((await rejection(queryDns(spoof, TXT.name, 'TXT', { timeoutMs: 1000 }))).message).toMatch(
      /TCP answer .* carries another ID/,
    );
  });

  it('reports a closed port as a connection error', async () => {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
    const { port } = socket.address() as AddressInfo;
    await new Promise<void>((r) => socket.close(() => r()));
    const error = await rejection(queryDns({ host: '127.0.0.1', port }, 'example.com', 'A', { timeoutMs: 2000 }));
    expect(error.kind).toBe('connection');
    expect(error.message).toMatch(
      new RegExp(
        `at 127\\.0\\.0\\.1:${port} failed: nothing answers DNS there \\(ECONNREFUSED\\): is a name server running`,
      ),
    );
  });

  it('reports a server it cannot even send to (connect fails) as a connection error', async () => {
    const error = await rejection(
      queryDns({ host: '255.255.255.255', port: 53 }, 'example.com', 'A', { timeoutMs: 2000 }),
    );
    expect([error.kind, error.message]).toEqual([
      'connection',
      expect.stringMatching(/UDP query example.com A at 255.255.255.255:53 failed: EACCES/),
    ]);
  });

  it('stops when the caller cancels', async () => {
    const controller = new AbortController();
    // Cancelled once the server has the question.
    const server = await start({ udp: () => void controller.abort() });
    // The message tells the cancel from the 5 s deadline; no clock needed.
    const error = await rejection(queryDns(server, 'example.com', 'A', { timeoutMs: 5000, signal: controller.signal }));
    expect([error.kind, error.message]).toEqual([
      'timeout',
      expect.stringMatching(/^no answer over UDP to example.com A at 127.0.0.1:\d+ before the query was cancelled$/),
    ]);
  });

  it('refuses an invalid name before sending anything (exit 2)', async () => {
    const server = await start({ udp: () => undefined });
    await expect(queryDns(server, `${'x'.repeat(64)}.example.com`, 'TXT', { timeoutMs: 500 })).rejects.toBeInstanceOf(
      ConfigError,
    );
    expect(server.udpQueries).toBe(0);
  });
});

describe('DNS servers', () => {
  it('parses --dns-server values', () => {
    expect(parseDnsServer('192.0.2.1')).toEqual({ host: '192.0.2.1', port: 53 });
    expect(parseDnsServer('127.0.0.1:5353')).toEqual({ host: '127.0.0.1', port: 5353 });
    expect(parseDnsServer('[::1]:5353')).toEqual({ host: '::1', port: 5353 });
    expect(parseDnsServer('[2001:db8::53]')).toEqual({ host: '2001:db8::53', port: 53 });
    expect(parseDnsServer('2001:db8::53')).toEqual({ host: '2001:db8::53', port: 53 });
    expect(parseDnsServer('ns1.example.com.:53')).toEqual({ host: 'ns1.example.com', port: 53 });
    for (const bad of [
      '',
      '1.2.3.4:0',
      '1.2.3.4:70000',
      '1.2.3.4:x',
      '999.1.1.1',
      '[nope]:53',
      '[1.2.3.4]:53',
      'bad host',
      '[::1]:',
    ]) {
      expect(() => parseDnsServer(bad), bad).toThrow(ConfigError);
    }
    expect(() => parseDnsServer('1.2.3.4:99999', 'DDEDGE_DNS_SERVERS')).toThrow(
      /^DDEDGE_DNS_SERVERS: "1.2.3.4:99999" has no valid port/,
    );
  });

  it('reads the nameservers of resolv.conf', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddedge-resolv-'));
    writeFileSync(
      join(dir, 'r'),
      '# comment\nsearch lan\nnameserver 192.0.2.53\nnameserver fe80::1%eth0\nnameserver 2001:db8::53 # x\nnameserver bogus\nnameserver 198.51.100.53\n',
    );
    expect(systemResolvers(join(dir, 'r'))).toEqual([
      { host: '192.0.2.53', port: 53 },
      { host: 'fe80::1', port: 53 },
      { host: '2001:db8::53', port: 53 },
    ]);
    writeFileSync(join(dir, 'empty'), 'options edns0\n');
    expect(systemResolvers(join(dir, 'empty'))).toEqual([{ host: '127.0.0.1', port: 53 }]);
  });

  it('finds the authoritative servers of a zone: glue first, then the addresses it asked for', async () => {
    const asked: string[] = [];
    const resolver = await start({
      udp: (q) => {
        const { name, type } = q.questions[0]!;
        asked.push(`${name} ${type}`);
        if (type === 2) {
          return answerTo(
            q,
            [
              { name: 'example.com', type: 'NS', ttl: 60, value: 'ns.elsewhere.net' },
              { name: 'example.com', type: 'NS', ttl: 60, value: 'ns1.example.com' },
              { name: 'example.com', type: 'NS', ttl: 60, value: 'NS1.example.com' },
            ],
            {
              additional: [
                { name: 'ns1.example.com', type: 'A', ttl: 60, value: '127.0.0.2' },
                { name: 'ns1.example.com', type: 'AAAA', ttl: 60, value: '::1' },
              ],
            },
          );
        }
        if (name === 'ns.elsewhere.net' && type === 1)
          return answerTo(q, [{ name, type: 'A', ttl: 60, value: '127.0.0.3' }]);
        return answerTo(q, []);
      },
    });
    const found = await findAuthoritativeServers('example.com', { resolvers: [resolver], timeoutMs: 2000, port: 5300 });
    expect(found).toEqual([
      { host: '127.0.0.2', port: 5300, name: 'ns1.example.com' },
      { host: '::1', port: 5300, name: 'ns1.example.com' },
      { host: '127.0.0.3', port: 5300, name: 'ns.elsewhere.net' },
    ]);
    expect(asked.sort()).toEqual(['example.com 2', 'ns.elsewhere.net 1', 'ns.elsewhere.net 28']);
  });

  it('says when a zone has no NS records, does not exist, or no resolver answers', async () => {
    const empty = await start({ udp: (q) => answerTo(q, []) });
    expect(
      (await rejection(findAuthoritativeServers('www.example.com', { resolvers: [empty], timeoutMs: 1000 }))).message,
    ).toMatch(/has no NS records/);
    const nx = await start({ udp: (q) => answerTo(q, [], { rcode: 3 }) });
    expect(
      (await rejection(findAuthoritativeServers('nope.example', { resolvers: [nx], timeoutMs: 1000 }))).message,
    ).toMatch(/does not exist \(NXDOMAIN\)/);
    const silent = await start({ udp: () => undefined });
    const refusing = await start({ udp: (q) => answerTo(q, [], { rcode: 5 }) });
    expect(
      (await rejection(findAuthoritativeServers('example.com', { resolvers: [refusing, silent], timeoutMs: 500 })))
        .kind,
    ).toBe('timeout');
  });
});
