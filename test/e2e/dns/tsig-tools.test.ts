// TSIG (RFC 8945) against the programs people use: BIND's tsig-keygen makes the keys, dig -y
// and nsupdate -y sign requests and verify our signed answers (a query, an update over UDP and
// TCP, a zone transfer signed message by message), for every algorithm. A wrong secret is
// BADSIG, an unknown key BADKEY, a skewed clock BADTIME with the server's time. The server is
// the shared listener with answerWithTsig in front of a small handler; the gateway puts the
// same pieces in front of the zone engine.
import { execFile, execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsListener, type DnsListener } from '../../../src/dns/server/listener.js';
import { decodeMessage, encodeMessage } from '../../../src/dns/wire/message.js';
import { answerWithTsig } from '../../../src/dns/server/tsig-server.js';
import {
  findTsig,
  signMessage,
  TSIG_ALGORITHMS,
  type TsigAlgorithm,
  type TsigKey,
} from '../../../src/dns/wire/tsig.js';
import type { DnsRecord } from '../../../src/dns/wire/types.js';
import { udpExchange, queryPacket } from '../../helpers/dns-wire.js';
import { requireTool } from '../../helpers/programs.js';

const TOOLS =
  requireTool('dig', 'bind9-dnsutils') &&
  requireTool('nsupdate', 'bind9-dnsutils') &&
  requireTool('tsig-keygen', 'bind9');

const ALGORITHMS = Object.keys(TSIG_ALGORITHMS) as TsigAlgorithm[];
const keys = new Map<string, TsigKey & { text: string }>();
let server: DnsListener;
const seen: { opcode: number; signedBy?: string }[] = [];

/** A key as tsig-keygen prints it, read the plain way (the keys file parser has its own tests). */
function keygen(name: string, algorithm: TsigAlgorithm): TsigKey & { text: string } {
  const text = execFileSync('tsig-keygen', ['-a', algorithm, name], { encoding: 'utf8' });
  const secret = /secret "([^"]+)"/.exec(text)![1]!;
  return { name, algorithm, secret: Buffer.from(secret, 'base64'), text: secret };
}

const SOA: DnsRecord = {
  name: 'example.com',
  type: 'SOA',
  ttl: 300,
  value: {
    mname: 'ns1.example.com',
    rname: 'hostmaster.example.com',
    serial: 7,
    refresh: 3600,
    retry: 600,
    expire: 604800,
    minimum: 60,
  },
};

function run(program: string, args: string[], input?: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = execFile(program, args, { timeout: 15_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
    if (input !== undefined) child.stdin!.end(input);
  });
}
const dig = (key: string, ...args: string[]) =>
  run('dig', ['@127.0.0.1', '-p', String(server.port), '+norec', '+time=3', '+tries=1', '-y', key, ...args]);
const spec = (k: TsigKey & { text: string }, secret = k.text) => `${k.algorithm}:${k.name}:${secret}`;

beforeAll(async () => {
  if (!TOOLS) return;
  for (const algorithm of ALGORITHMS) keys.set(algorithm, keygen(`key-${algorithm}.example`, algorithm));
  server = await startDnsListener({
    host: '127.0.0.1',
    port: 0,
    handle: (packet) =>
      answerWithTsig(
        packet,
        (name) => [...keys.values()].find((k) => k.name === name),
        (request, signer) => {
          const message = decodeMessage(request);
          seen.push({ opcode: message.opcode, ...(signer ? { signedBy: signer.key.name } : {}) });
          const base = {
            id: message.id,
            response: true,
            authoritative: true,
            opcode: message.opcode,
            questions: message.questions,
          };
          if (message.opcode === 5) return encodeMessage(base);
          if (message.questions[0]?.type === 252) {
            const a = (i: number): DnsRecord => ({
              name: `h${i}.example.com`,
              type: 'A',
              ttl: 60,
              value: `192.0.2.${i}`,
            });
            return [
              encodeMessage({ ...base, answers: [SOA, a(1)] }),
              encodeMessage({ ...base, questions: [], answers: [a(2), a(3)] }),
              encodeMessage({ ...base, questions: [], answers: [SOA] }),
            ];
          }
          return encodeMessage({ ...base, answers: [SOA] });
        },
        () => Math.floor(Date.now() / 1000),
      ),
  });
});
afterAll(async () => {
  await server?.close();
});

describe.skipIf(!TOOLS)('TSIG with dig and nsupdate', () => {
  it.each(ALGORITHMS)('dig -y %s: a signed query gets a signed answer dig verifies', async (algorithm) => {
    const { code, out } = await dig(spec(keys.get(algorithm)!), 'example.com', 'SOA');
    expect(code, out).toBe(0);
    expect(out).toMatch(/status: NOERROR/);
    expect(out).toMatch(/TSIG PSEUDOSECTION/);
    expect(out).not.toMatch(/verify|Couldn't|WARNING/i);
  });

  it.each(['hmac-sha256', 'hmac-sha512', 'hmac-md5'] as TsigAlgorithm[])(
    'nsupdate -y %s over UDP and over TCP (-v): the update is answered, signed',
    async (algorithm) => {
      const script = `server 127.0.0.1 ${server.port}\nzone example.com\nupdate add x.example.com 60 A 192.0.2.1\nsend\n`;
      for (const tcp of [false, true]) {
        const before = seen.length;
        const { code, out } = await run(
          'nsupdate',
          [...(tcp ? ['-v'] : []), '-t', '5', '-y', spec(keys.get(algorithm)!)],
          script,
        );
        expect(code, out).toBe(0);
        expect(seen.slice(before)).toContainEqual({ opcode: 5, signedBy: keys.get(algorithm)!.name });
      }
    },
  );

  it('signs every message of a zone transfer so that dig verifies each', async () => {
    const { code, out } = await dig(spec(keys.get('hmac-sha256')!), 'example.com', 'AXFR');
    expect(code, out).toBe(0);
    expect(out).toMatch(/h3\.example\.com\.\s+60\s+IN\s+A\s+192\.0\.2\.3/);
    expect(out).not.toMatch(/verify|failed/i);
    expect(out).toMatch(/XFR size: 5 records \(messages 3/);
  });

  it('answers a wrong secret with NOTAUTH/BADSIG and an unknown key with NOTAUTH/BADKEY, unsigned, reaching no handler', async () => {
    const before = seen.length;
    const wrong = await dig(
      spec(keys.get('hmac-sha256')!, Buffer.alloc(32, 1).toString('base64')),
      'example.com',
      'SOA',
    );
    expect(wrong.out).toMatch(/status: NOTAUTH/);
    expect(wrong.out).toMatch(/BADSIG/);
    const unknown = await dig(
      `hmac-sha256:nobody.example:${Buffer.alloc(32, 2).toString('base64')}`,
      'example.com',
      'SOA',
    );
    expect(unknown.out).toMatch(/status: NOTAUTH/);
    expect(unknown.out).toMatch(/BADKEY/);
    const rejected = await run(
      'nsupdate',
      ['-t', '5', '-y', spec(keys.get('hmac-sha256')!, Buffer.alloc(32, 1).toString('base64'))],
      `server 127.0.0.1 ${server.port}\nzone example.com\nupdate add x.example.com 60 A 192.0.2.1\nsend\n`,
    );
    expect(rejected.code).not.toBe(0);
    expect(seen.length).toBe(before);
  });

  it("answers a request signed 20 minutes ago with NOTAUTH/BADTIME, signed, with the server's time", async () => {
    const key = keys.get('hmac-sha256')!;
    const now = Math.floor(Date.now() / 1000);
    const request = signMessage(queryPacket({ name: 'example.com', type: 6 }), key, undefined, {
      timeSigned: now - 1200,
    }).message;
    const answer = await udpExchange(server.port, request);
    expect(decodeMessage(answer).rcode).toBe(9);
    const tsig = findTsig(answer)!;
    expect(tsig.error).toBe(18);
    expect(tsig.mac.length).toBe(32);
    expect(tsig.timeSigned).toBe(now - 1200);
    expect(Math.abs(tsig.other.readUInt16BE(0) * 2 ** 32 + tsig.other.readUInt32BE(2) - now)).toBeLessThan(5);
    // The answer's MAC covers the request's MAC: recompute it as a client would.
    const unsigned = Buffer.from(answer.subarray(0, tsig.offset));
    unsigned.writeUInt16BE(unsigned.readUInt16BE(10) - 1, 10);
    const again = signMessage(unsigned, key, findTsig(request)!.mac, {
      timeSigned: tsig.timeSigned,
      error: 18,
      other: tsig.other,
    });
    expect(again.mac).toEqual(tsig.mac);
  });
});
