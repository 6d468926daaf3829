// A minimal authoritative DNS server on 127.0.0.1, enough for the DNS-based address sources:
// answers A, AAAA and TXT questions from a fixed table, NXDOMAIN otherwise. Built on the
// project's own wire codec (src/dns/) and the scriptable server of hostile-dns.ts.
import { answerTo, framed, startHostileDns } from './hostile-dns.js';
import type { DnsMessage, DnsRecord } from '../../src/dns/wire/types.js';

export interface DnsAnswers {
  A?: Record<string, string>;
  AAAA?: Record<string, string>;
  TXT?: Record<string, string>;
}

const TYPES: Record<number, keyof DnsAnswers> = { 1: 'A', 28: 'AAAA', 16: 'TXT' };

export async function startDnsServer(answers: DnsAnswers): Promise<{ server: string; close(): Promise<void> }> {
  const reply = (query: DnsMessage): Buffer => {
    const question = query.questions[0]!;
    const type = TYPES[question.type];
    const value = type ? answers[type]?.[question.name.toLowerCase()] : undefined;
    if (!type || value === undefined) return answerTo(query, [], { rcode: 3 });
    const record = (
      type === 'TXT'
        ? { name: question.name, type, ttl: 60, value: [value] }
        : { name: question.name, type, ttl: 60, value }
    ) as DnsRecord;
    return answerTo(query, [record]);
  };
  const dns = await startHostileDns({ udp: reply, tcp: (query) => framed(reply(query)) });
  return { server: `127.0.0.1:${dns.port}`, close: dns.close };
}
