// The sandbox's name server re-reads only what a write to the model touched: an entry added,
// edited or deleted costs that entry, not the zone (it used to read every entry of the zone at
// the first question after any change: about 300 ms before that question was answered in a
// 50,000-entry zone), and after any sequence of writes the answers are those of the same model
// read afresh.
import { describe, expect, it } from 'vitest';
import type { DnsEntry } from '../../../src/api/endpoints/service.js';
import type { ZoneAnswer } from '../../../src/dns/server/authority.js';
import type { DnsRecord } from '../../../src/dns/wire/types.js';
import { ModelZones } from '../../../src/sandbox/dns/model-zones.js';
import { demoModel, type SandboxModel } from '../../../src/sandbox/model.js';

const A = 1;
const SOA = 6;
const TYPES = [1, 2, 5, 6, 15, 16, 28, 255];

/** Entries that count every read of their fields. */
function countedEntries(n: number, reads: { count: number }): DnsEntry[] {
  return Array.from(
    { length: n },
    (_, i) =>
      new Proxy(
        {
          entityID: String(1000 + i),
          name: `h${i}.example.com`,
          type: 'A',
          ttl: '-',
          priority: '-',
          value: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        },
        {
          get(target, key) {
            reads.count++;
            return target[key as keyof DnsEntry];
          },
        },
      ),
  );
}

/** A small pseudo-random sequence, the same at every run. */
function numbers(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

/** An answer with the serial left out (a fresh reading's serial is its own), and its records in one order (an RRset's order means nothing, and a list reordered is not re-read for it). */
function plain(answer: ZoneAnswer) {
  const strip = (list: DnsRecord[]) =>
    list
      .map((r) => JSON.stringify(r.type === 'SOA' ? { ...r, value: { ...(r.value as object), serial: 0 } } : r))
      .sort();
  return {
    ...answer,
    answers: strip(answer.answers),
    authority: strip(answer.authority),
    additional: strip(answer.additional),
  };
}

describe('a change costs what it touched', () => {
  it('adds, edits and deletes one entry of a 50,000-entry zone reading a handful of entry fields, not the zone', () => {
    const model = demoModel();
    const reads = { count: 0 };
    const service = model.services[0]!;
    service.dns.push(...countedEntries(50_000, reads));
    const zones = new ModelZones(model, { A: '127.0.0.1' });
    const serial = () => (zones.answer('example.com', SOA).answers[0]!.value as { serial: number }).serial;
    const start = serial();
    reads.count = 0;
    // dnsupdate: an entry edited in place.
    const edited = service.dns.find((e) => e.entityID === '1007')!;
    reads.count = 0;
    edited.value = '192.0.2.77';
    expect(zones.answer('h7.example.com', A).answers[0]!.value).toBe('192.0.2.77');
    expect(reads.count).toBeLessThan(20);
    // dnscreate: an entry appended.
    reads.count = 0;
    service.dns.push({
      entityID: '90',
      name: 'new.example.com',
      type: 'A',
      ttl: '-',
      priority: '-',
      value: '192.0.2.90',
    });
    expect(zones.answer('new.example.com', A).answers[0]!.value).toBe('192.0.2.90');
    expect(reads.count).toBe(0);
    // dnsdelete: an entry spliced out (the list is walked by identity, no entry read).
    const index = service.dns.findIndex((e) => e.entityID === '1008');
    reads.count = 0;
    service.dns.splice(index, 1);
    expect(zones.answer('h8.example.com', A).rcode).toBe(3);
    expect(reads.count).toBe(0);
    expect(zones.answer('h9.example.com', A).answers[0]!.value).toBe('10.0.0.9');
    expect(serial()).toBe(start + 3);
  });

  it('after 300 seeded writes of every kind, answers as the same model read afresh', () => {
    const next = numbers(2136);
    const model = demoModel();
    const zones = new ModelZones(model, { A: '127.0.0.1' });
    const names = [
      'example.com',
      'a.example.com',
      'b.a.example.com',
      '*.example.com',
      'sub.example.com',
      'ns.sub.example.com',
      'ns1.example.com',
      'www.example.com',
      'x.y.example.com',
      '@',
      'rel',
      'example.net',
      'h.example.net',
      'bad..name',
    ];
    const questions = [
      'example.com',
      'a.example.com',
      'b.a.example.com',
      'q.a.example.com',
      'sub.example.com',
      'w.sub.example.com',
      'ns1.example.com',
      'www.example.com',
      'y.example.com',
      'nope.example.com',
      'rel.example.com',
      'example.net',
      'h.example.net',
      'home.example.com',
    ];
    const draw = <T>(list: T[]): T => list[Math.floor(next() * list.length)]!;
    const newEntry = (): DnsEntry => {
      const [type, value] = draw([
        ['A', `192.0.2.${Math.floor(next() * 9)}`],
        ['AAAA', `2001:db8::${Math.floor(next() * 9)}`],
        ['TXT', `t${Math.floor(next() * 9)}`],
        ['NS', draw(['ns.sub.example.com', 'ns9.elsewhere.net'])],
        ['CNAME', draw(['www.example.com', 'b.a.example.com'])],
        ['MX', 'mail.example.com'],
        ['A', 'not an address'],
      ]);
      return {
        entityID: String(Math.floor(next() * 1e9)),
        name: draw(names),
        type: type!,
        ttl: draw(['-', '60', '3600']),
        priority: '-',
        value: value!,
      };
    };
    for (let step = 0; step < 300; step++) {
      const service = draw(model.services.slice(0, 2));
      const op = Math.floor(next() * 7);
      if (op <= 1) service.dns.push(newEntry());
      else if (op === 2 && service.dns.length) service.dns.splice(Math.floor(next() * service.dns.length), 1);
      else if (op === 3 && service.dns.length) {
        const e = draw(service.dns);
        const fresh = newEntry();
        e.name = fresh.name;
        if (next() < 0.5) e.value = e.type === fresh.type ? fresh.value : e.value;
        e.ttl = fresh.ttl;
      } else if (op === 4 && next() < 0.2) service.dns = Array.from({ length: Math.floor(next() * 6) }, newEntry);
      else if (op === 5 && service.dns.length > 1) {
        // Two entries swap places (the list walked out of order), or one is in it twice.
        const i = Math.floor(next() * service.dns.length);
        const j = Math.floor(next() * service.dns.length);
        if (next() < 0.7) [service.dns[i], service.dns[j]] = [service.dns[j]!, service.dns[i]!];
        else service.dns[i] = service.dns[j]!;
      } else {
        // Several writes before the next question: one sync sees them all.
        service.dns.push(newEntry(), newEntry());
        if (service.dns.length > 3) service.dns.splice(1, 1);
      }
      if (next() < 0.5) continue;
      const fresh = new ModelZones(JSON.parse(JSON.stringify(model)) as SandboxModel, { A: '127.0.0.1' });
      for (const name of questions)
        for (const qtype of TYPES)
          expect(plain(zones.answer(name, qtype)), `step ${step}: ${name} type ${qtype}`).toEqual(
            plain(fresh.answer(name, qtype)),
          );
      fresh.close();
    }
    zones.close();
  });
});
