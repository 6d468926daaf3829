// What the provider holds and a master file cannot, on its own (an export must lose nothing):
// for a corpus of such entries beside ordinary ones, the export read back plans no change
// (every entry is unchanged or kept, with the reason), and the backup read back holds the zone
// exactly.
import { describe, expect, it } from 'vitest';
import type { DnsEntry } from '../../../../src/api/endpoints/service.js';
import { ownership } from '../../../../src/zone/plan/ownership.js';
import { planZone } from '../../../../src/zone/plan/plan.js';
import { fromProvider, toProvider } from '../../../../src/zone/provider/provider-mapping.js';
import type { LiveRecord } from '../../../../src/zone/record.js';
import { keepingUnwritable, unwritableRecords } from '../../../../src/zone/plan/unwritable.js';
import { backupAsMasterFile, readZoneText, zoneAsMasterFile } from '../../../../src/zone/apply/zone-files.js';

const ZONE = 'example.com';
let id = 0;
const entry = (name: string, type: string, value: string, ttl = '-', priority = '-'): DnsEntry => ({
  entityID: String(++id),
  name,
  type,
  ttl,
  priority,
  value,
});
const LONG = `${Array.from({ length: 4 }, (_, i) => `${i}${'t'.repeat(62)}`).join('.')}.net`;

/** Ordinary records, which the file holds as records. */
const ORDINARY = [
  entry(ZONE, 'A', '192.0.2.1'),
  entry(ZONE, 'MX', 'mail.example.com', '3600', '10'),
  entry(`www.${ZONE}`, 'CNAME', ZONE),
  entry(`txt.${ZONE}`, 'TXT', 'say "hi"; a\\b\r\n\u0000 é'),
  entry(ZONE, 'CAA', '0 issue "letsencrypt.org"'),
  entry(`_sip._tcp.${ZONE}`, 'SRV', '5 5060 sip.example.net', '-', '20'),
  // A name that ends with the zone again: written absolute, or a reader takes it for a missing dot.
  entry(`example.com.${ZONE}`, 'A', '192.0.2.2'),
  entry(`www.example.com.${ZONE}`, 'A', '192.0.2.3'),
];

/** Entries the provider keeps that a master file cannot hold as themselves; the reason each is kept. */
const UNWRITABLE: [DnsEntry, RegExp][] = [
  [entry(`alias.${ZONE}`, 'CNAME', '*.example.net'), /"\*\.example\.net" is not a host name/],
  [entry(ZONE, 'MX', '*.mx.example.net', '-', '20'), /is not a host name/],
  [entry(`long.${ZONE}`, 'CNAME', LONG), /is not a host name/],
  [entry(ZONE, 'CAA', '0 issue "ca"quoted"'), /would write its value as 0 issue "ca\\"quoted"/],
  [entry(ZONE, 'CAA', '0 issue "back\\slash"'), /would write its value/],
  [entry(`big.${ZONE}`, 'A', '192.0.2.9', '99999999999'), /TTL 99999999999 is beyond 2147483647/],
  [entry(ZONE, 'MX', 'mx2.example.net', '-', '70000'), /priority 70000 is beyond 65535/],
  [entry(`bad.${ZONE}`, 'TXT', 'half \ud800 surrogate'), /not valid Unicode/],
  [entry(`nl.${ZONE}`, 'A', '192.0.2.9\nevil 60 IN NS ns.attacker.example.'), /is not an IPv4 address/],
  // Two entries of one record: the file holds it once, the second is kept.
  [entry(`dup.${ZONE}`, 'A', '192.0.2.5', '600'), /another entry holds the same record/], // the second entry (higher ID)
  // A CNAME beside other data (a provider that let it in): none of them is written.
  [entry(`both.${ZONE}`, 'CNAME', 'www.example.net'), /a CNAME shares the name both\.example\.com/],
  [entry(`both.${ZONE}`, 'TXT', 'beside'), /a CNAME shares the name/],
];
/** Kept, and not given back by a backup: the provider would file or refuse them elsewhere. */
const NOT_RESTORABLE: [DnsEntry, RegExp][] = [
  [entry('www.example.org', 'A', '192.0.2.94'), /outside the zone/],
  [entry(`bad name.${ZONE}`, 'A', '192.0.2.95'), /is not a host name/],
];
const DUP_FIRST = { ...entry(`dup.${ZONE}`, 'A', '192.0.2.5', '300'), entityID: '0' };

const raw = [...ORDINARY, DUP_FIRST, ...UNWRITABLE.map(([e]) => e), ...NOT_RESTORABLE.map(([e]) => e)];
const live = (): LiveRecord[] => raw.map((e) => fromProvider(e, ZONE));

function plan(liveRecords: LiveRecord[], text: string) {
  const wanted = readZoneText(text, { zone: ZONE, file: 'z' });
  const owner = keepingUnwritable(
    ownership({ zone: ZONE, hosts: [], ignore: [] }),
    unwritableRecords(ZONE, liveRecords),
    wanted,
  );
  return planZone(liveRecords, wanted, owner);
}

describe('records a master file cannot hold', () => {
  it('are written as comments with the reason, and the export read back plans no change: each is kept', () => {
    const records = live();
    const text = zoneAsMasterFile(ZONE, records, ['export']);
    const result = plan(records, text);
    expect(result.changes).toEqual([]);
    expect(result.unchanged).toHaveLength(ORDINARY.length + 1);
    for (const [e, reason] of [...UNWRITABLE, ...NOT_RESTORABLE]) {
      const kept = result.kept.filter(
        (k) => k.name === fromProvider(e, ZONE).name && k.type === e.type && k.value === fromProvider(e, ZONE).value,
      );
      expect(kept, `${e.name} ${e.type} ${e.value}`).toHaveLength(1);
      expect(kept[0]!.reason).toMatch(/^cannot be written in a master file: /);
      expect(kept[0]!.reason).toMatch(reason);
    }
    // Nothing raw reaches the file: one line per record, control characters escaped.
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(text.split('\n').filter((l) => /^evil/.test(l))).toEqual([]);
    expect(text).toMatch(/^; kept, cannot be written in a master file: .*: alias IN CNAME "\*\.example\.net"$/m);
  });

  it('a backup holds them exactly: read back it plans no change, and into an empty zone it creates every entry as the provider held it', () => {
    const records = live();
    const text = backupAsMasterFile(ZONE, records, ['backup']);
    expect(readZoneText(text, { zone: ZONE, file: 'z' }).exact).toBe(true);
    expect(plan(records, text).changes).toEqual([]);

    const restored = plan([], text);
    expect(restored.changes.every((c) => c.action === 'create')).toBe(true);
    const sent = restored.changes
      .map((c) => toProvider(c.after!))
      .map((f) => `${f.name} ${f.type} ${f.ttl ?? '-'} ${f.priority ?? '-'} ${f.value}`)
      .sort();
    const restorable = [...ORDINARY, DUP_FIRST, ...UNWRITABLE.map(([e]) => e)];
    expect(sent).toEqual(restorable.map((e) => `${e.name} ${e.type} ${e.ttl} ${e.priority} ${e.value}`).sort());
  });

  it('a backup plans the deletion of an unwritable record added since, but keeps those it could not give back', () => {
    const records = live();
    const text = backupAsMasterFile(ZONE, records, ['backup']);
    const later = [...records, fromProvider(entry(`new.${ZONE}`, 'CNAME', '*.later.example.net'), ZONE)];
    const result = plan(later, text);
    expect(result.changes.map((c) => `${c.action} ${c.before?.name}`)).toEqual([`delete new.${ZONE}`]);
    expect(result.kept.map((k) => k.name)).toEqual(expect.arrayContaining(['www.example.org', `bad name.${ZONE}`]));
  });

  it('a second entry of a record stays while the file holds the record (whatever its TTL), and goes with it', () => {
    const records = [
      fromProvider({ ...entry(`d.${ZONE}`, 'A', '192.0.2.8', '300'), entityID: '5' }, ZONE),
      fromProvider({ ...entry(`d.${ZONE}`, 'A', '192.0.2.8', '600'), entityID: '40' }, ZONE),
    ];
    const summary = (text: string) =>
      plan(records, `$ORIGIN ${ZONE}.\n${text}\n`).changes.map(
        (c) => `${c.action} ${c.before?.entityID ?? '-'} ${c.after?.ttl ?? '-'}`,
      );
    expect(summary('d 300 A 192.0.2.8')).toEqual([]);
    // The oldest entry is the one written, so a new TTL updates it, not the other (no flip-flop).
    expect(summary('d 900 A 192.0.2.8')).toEqual(['update 5 900']);
    expect(summary('other A 192.0.2.9').sort()).toEqual(['create - -', 'delete 40 -', 'delete 5 -']);
  });

  it('the lines a backup adds are comments to any other reader, plain text whatever the value', () => {
    const text = backupAsMasterFile(
      ZONE,
      [fromProvider(entry(`c.${ZONE}`, 'CNAME', 'x\u001b[2J\u009b\u2028y'), ZONE)],
      [],
    );
    const lines = text.split('\n').filter((l) => l.startsWith(';ddedge-record '));
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028]/);
    expect(JSON.parse(lines[0]!.slice(';ddedge-record '.length)).value).toBe('x\u001b[2J\u009b\u2028y');
  });

  it('a hand-made exact record outside the zone or of another type is an error naming its line', () => {
    const bad = (json: string) => () =>
      readZoneText(`$ORIGIN ${ZONE}.\n;ddedge-exact-zone\n;ddedge-record ${json}\n`, { zone: ZONE, file: 'z' });
    expect(bad('{"name":"x.example.org","type":"A","ttl":null,"priority":null,"value":"192.0.2.1"}')).toThrow(
      /^z:3:16: ;ddedge-record: "x\.example\.org" is outside the zone example\.com/,
    );
    expect(bad('{"name":"x.example.com","type":"PTR","ttl":null,"priority":null,"value":"a"}')).toThrow(
      /z:3:16: .*type "PTR"/,
    );
    expect(bad('{"name":')).toThrow(/z:3:16: .*not valid JSON/);
  });

  it("a hand-made exact record that is not JSON is told on one line, none of the file's characters raw", () => {
    const message = (() => {
      try {
        readZoneText(`$ORIGIN ${ZONE}.\n;ddedge-exact-zone\n;ddedge-record [1,\u001b]0;PWNED\u0007]\n`, {
          zone: ZONE,
          file: 'z',
        });
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/^z:3:16: ;ddedge-record: not valid JSON \(Unexpected token '\\027'\)$/);
  });

  // Found by an attack: names spelt otherwise than a backup writes them slipped past ownership.
  it('a hand-made exact record whose name is not spelt as a backup writes it is an error (HOME.example.com, a trailing dot)', () => {
    const bad = (json: string) => () =>
      readZoneText(`$ORIGIN ${ZONE}.\n;ddedge-exact-zone\n;ddedge-record ${json}\n`, { zone: ZONE, file: 'z' });
    expect(bad('{"name":"HOME.example.com","type":"A","ttl":null,"priority":null,"value":"203.0.113.66"}')).toThrow(
      /z:3:16: .*"HOME\.example\.com" is not a name as a backup writes it/,
    );
    expect(bad('{"name":"_acme-challenge.example.com.","type":"TXT","ttl":null,"priority":null,"value":"t"}')).toThrow(
      /not a name as a backup writes it/,
    );
    const good = readZoneText(
      `$ORIGIN ${ZONE}.\n;ddedge-exact-zone\n;ddedge-record {"name":"home.example.com","type":"A","ttl":null,"priority":null,"value":"203.0.113.66"}\n`,
      { zone: ZONE, file: 'z' },
    );
    expect(good.records.map((r) => r.name)).toEqual(['home.example.com']);
  });

  it("an exact record beside a CNAME of the master-file part is an error naming its line; among exact lines it is the provider's own", () => {
    const text = (exact: string[]) =>
      `$ORIGIN ${ZONE}.\nwww CNAME @\n;ddedge-exact-zone\n${exact.map((j) => `;ddedge-record ${j}`).join('\n')}\n`;
    expect(() =>
      readZoneText(text(['{"name":"www.example.com","type":"A","ttl":null,"priority":null,"value":"192.0.2.9"}']), {
        zone: ZONE,
        file: 'z',
      }),
    ).toThrow(/^z:4:1: a CNAME cannot share its name with other data: www\.example\.com A/);
    const among = `$ORIGIN ${ZONE}.\n;ddedge-exact-zone\n;ddedge-record {"name":"c.example.com","type":"CNAME","ttl":null,"priority":null,"value":"*.example.net"}\n;ddedge-record {"name":"c.example.com","type":"A","ttl":null,"priority":null,"value":"192.0.2.9"}\n`;
    expect(readZoneText(among, { zone: ZONE, file: 'z' }).records).toHaveLength(2);
  });
});
