// `acme persist --check` against a name server that answers what it likes (127.0.0.1): what it
// says stays one bounded report with no terminal control in it, whatever the TXT set holds, and a
// server that truncates, loops or never answers ends the check with the exit code it promises.
import { afterEach, describe, expect, it } from 'vitest';
import type { DnsMessage, DnsRecord } from '../../../../src/dns/wire/types.js';
import { baseEnv, runMain, tempDir } from '../../../helpers/cli.js';
import { answerTo, framed, startHostileDns, type HostileDns, type Reply } from '../../../helpers/hostile-dns.js';

const NAME = '_validation-persist.example.com';
const ACCOUNT = 'https://ca.example/acme/acct/7';
const servers: HostileDns[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const txt = (...strings: string[]): DnsRecord => ({ name: NAME, type: 'TXT', ttl: 60, value: strings });

/** A server whose every answer (over UDP, and over TCP after a truncated UDP one) holds `records`. */
async function serving(records: DnsRecord[] | ((q: DnsMessage) => DnsRecord[])): Promise<string> {
  const of = (q: DnsMessage) => (typeof records === 'function' ? records(q) : records);
  const server = await startHostileDns({
    udp: (q) => answerTo(q, [], { truncated: true }),
    tcp: (q) => framed(answerTo(q, of(q))),
  });
  servers.push(server);
  return `${server.host}:${server.port}`;
}

async function check(server: string, ...extra: string[]) {
  return runMain(
    ['acme', 'persist', 'example.com', '--issuer', 'ca.example', '--check', '--dns-server', server, ...extra],
    baseEnv({ DDEDGE_STATE_DIR: tempDir('ddedge-state-'), DDEDGE_TIMEOUT: '3s' }),
  );
}

/** C0 and C1 controls, DEL, line separators and bidi controls: none may reach a terminal. */
const TERMINAL_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('acme persist --check against a hostile name server', () => {
  it('shows no terminal control from a record, whichever part of it holds one', async () => {
    const server = await serving([
      txt('ca.example; accounturi=https://ca.example/\u009b2J\u009b31m'),
      txt('ca.example; evil=1; accounturi=\u202ex'),
      txt('ca.example; accounturi=a; policy=\u001b]0;title\u0007'),
      txt(`ca.example\u0085; accounturi=${ACCOUNT}`),
    ]);
    const result = await check(server, '--account-uri', ACCOUNT);
    expect(result.code, result.stderr).toBe(8);
    expect(result.stdout).toContain('malformed');
    expect(result.stdout).not.toMatch(TERMINAL_CONTROL);
    expect(result.stderr).not.toMatch(TERMINAL_CONTROL);
  });

  it('--json escapes every terminal control in the texts it gives as they were answered', async () => {
    const hostile = 'ca.example; accounturi=https://ca.example/\u009b2J; note=\u202e\u2028';
    const result = await check(await serving([txt(hostile)]), '--json', '--account-uri', ACCOUNT);
    expect(result.code, result.stderr).toBe(8);
    expect(result.stdout).not.toMatch(TERMINAL_CONTROL);
    expect(JSON.parse(result.stdout).servers[0].records).toEqual([hostile]);
  });

  it('keeps the report short when the server answers a huge record or many records for the issuer', async () => {
    const huge = Array.from({ length: 120 }, () => 'x'.repeat(255));
    const many = Array.from({ length: 300 }, (_, i) => txt(`ca.example; accounturi=https://ca.example/acct/${i}`));
    const server = await serving([txt('ca.example; accounturi=', ...huge), ...many]);
    const result = await check(server, '--account-uri', ACCOUNT);
    expect(result.code, result.stderr).toBe(8);
    expect(result.stdout.length).toBeLessThan(4000);
    expect(result.stdout).toMatch(/more/);
  });

  it('keeps the report short when a record that validates names a huge account', async () => {
    const huge = Array.from({ length: 200 }, () => 'a'.repeat(255));
    const result = await check(await serving([txt('ca.example; accounturi=https://ca.example/', ...huge)]));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.length).toBeLessThan(4000);
  });

  it('says a CNAME loop is no record, without following it', async () => {
    const loop: DnsRecord[] = [
      { name: NAME, type: 'CNAME', ttl: 60, value: 'a.example.com' },
      { name: 'a.example.com', type: 'CNAME', ttl: 60, value: NAME },
    ];
    const result = await check(await serving(loop));
    expect(result.code, result.stderr).toBe(8);
  });

  it('is exit 4 when the answer is truncated over TCP too, or never comes', async () => {
    const truncated = await startHostileDns({
      udp: (q: DnsMessage) => answerTo(q, [], { truncated: true }),
      tcp: (q: DnsMessage) => framed(answerTo(q, [], { truncated: true })),
    } satisfies { udp: Reply; tcp: Reply });
    const silent = await startHostileDns({ udp: () => undefined, tcp: () => undefined });
    servers.push(truncated, silent);
    const a = await check(`${truncated.host}:${truncated.port}`);
    expect(a.code, a.stderr).toBe(4);
    expect(a.stderr).toContain('truncated');
    const b = await check(`${silent.host}:${silent.port}`, '--timeout', '1s');
    expect(b.code, b.stderr).toBe(4);
  });
});
