// An answer too large for any DNS message (over 64 KB; a DHCID store written before its names
// were bounded held one): over UDP it is TC, so the client asks over TCP, as for any answer
// too large for UDP; over TCP, where nothing larger exists, it stays SERVFAIL.
import { describe, expect, it } from 'vitest';
import { CookieJar } from '../../../../src/dns/server/cookies.js';
import { decodeMessage, encodeMessage } from '../../../../src/dns/wire/message.js';
import { respondToQuery } from '../../../../src/dns/server/responder.js';

const NAME = 'h.dhcp.example.com';
/** 300 records of 255 bytes of data each: about 80 KB. */
const huge = () => ({
  rcode: 0,
  authoritative: true,
  answers: Array.from({ length: 300 }, (_, i) => ({
    name: NAME,
    type: 'TYPE49',
    ttl: 300,
    value: `0002${i.toString(16).padStart(8, '0')}${'ab'.repeat(249)}`,
  })),
  authority: [],
  additional: [],
});
const query = encodeMessage({ id: 3, questions: [{ name: NAME, type: 49, class: 1 }] });

describe('an answer larger than a DNS message', () => {
  it('is TC over UDP', () => {
    const answer = decodeMessage(
      respondToQuery(query, { transport: 'udp', address: '127.0.0.1' }, huge as never, { cookies: new CookieJar() })!,
    );
    expect(answer.truncated).toBe(true);
    expect(answer.rcode).toBe(0);
    expect(answer.answers).toHaveLength(0);
  });

  it('is SERVFAIL over TCP', () => {
    const answer = decodeMessage(
      respondToQuery(query, { transport: 'tcp', address: '127.0.0.1' }, huge as never, { cookies: new CookieJar() })!,
    );
    expect(answer.rcode).toBe(2);
  });
});
