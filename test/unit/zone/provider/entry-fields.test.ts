// One reading of a provider entry's fields (entry-fields.ts), pinned once for every reader: the
// zone engine (fromProvider), the name server (recordOfEntry), the agent's API path (whether an
// entry already holds the address and TTL asked for) and the ACME challenges (the entries that
// hold a token). TTL and priority are digits or "-" (the provider's default); MX and SRV default
// to priority 10; "" is the empty TXT; a quoted TXT is its own text to a zone, its token to ACME.
import { describe, expect, it } from 'vitest';
import { entriesWithValue } from '../../../../src/acme/txt-entries.js';
import { updateRecordViaApi } from '../../../../src/agent/via-api.js';
import type { ApiClient } from '../../../../src/api/client.js';
import type { DnsEntry } from '../../../../src/api/endpoints/service.js';
import { silentLogger } from '../../../../src/lib/log.js';
import {
  countOf,
  DEFAULT_PRIORITY,
  DEFAULT_TTL,
  entryMatchesHost,
  txtOfValue,
  unquotedTxt,
} from '../../../../src/zone/provider/entry-fields.js';
import { recordOfEntry } from '../../../../src/zone/provider/entry-records.js';
import { fromProvider } from '../../../../src/zone/provider/provider-mapping.js';

const Z = 'example.com';
const HOST = `home.${Z}`;
const entry = (type: string, value: string, fields: Partial<DnsEntry> = {}): DnsEntry => ({
  entityID: '1',
  name: HOST,
  type,
  ttl: '-',
  priority: '-',
  value,
  ...fields,
});

/** A provider holding `entries` (its list), recording the writes asked of it (its other calls). */
function providerHolding(entries: DnsEntry[]): { client: ApiClient; writes: unknown[] } {
  const writes: unknown[] = [];
  const fake = {
    async *pages() {
      yield { items: entries };
    },
    async call(_module: string, _endpoint: unknown, params: unknown) {
      writes.push(params);
      return {};
    },
  };
  return { client: fake as unknown as ApiClient, writes };
}

const update = (client: ApiClient, ttl?: number) =>
  updateRecordViaApi(client, Z, HOST, 'A', '192.0.2.1', silentLogger, ttl);
const UNCHANGED = { changed: false, created: false };

describe("an entry's TTL", () => {
  it.each([
    ['-', undefined],
    ['60', 60],
    ['0', 0],
    ['', undefined],
    [' 60 ', undefined],
    ['6e1', undefined],
    ['60.0', undefined],
    [undefined, undefined],
  ])('%j reads as %j', (ttl, read) => expect(countOf(ttl)).toBe(read));

  it('is read the same by the zone engine and the name server (which serves "-" as the default)', () => {
    for (const ttl of ['-', '60', ' 60 ', '60.0']) {
      const e = entry('A', '192.0.2.1', { ttl });
      expect(fromProvider(e, Z).ttl, ttl).toBe(countOf(ttl));
      expect(recordOfEntry(e, HOST)!.ttl, ttl).toBe(countOf(ttl) ?? DEFAULT_TTL);
    }
    expect(DEFAULT_TTL).toBe(300);
  });

  it('is read the same by the agent\'s API path: "-" is no TTL, so asking for one is a change', async () => {
    const same = providerHolding([entry('A', '192.0.2.1', { ttl: '60' })]);
    expect(await update(same.client, 60)).toMatchObject(UNCHANGED);
    expect(same.writes).toEqual([]);
    for (const ttl of ['-', ' 60 ', '']) {
      const other = providerHolding([entry('A', '192.0.2.1', { ttl })]);
      expect(await update(other.client, ttl === '-' ? DEFAULT_TTL : 60)).toMatchObject({
        changed: true,
        created: false,
      });
      expect(other.writes, ttl).toHaveLength(1);
    }
    // Without a TTL asked for, the entry keeps whatever it has.
    const kept = providerHolding([entry('A', '192.0.2.1', { ttl: '-' })]);
    expect(await update(kept.client)).toMatchObject(UNCHANGED);
  });
});

describe("an MX or SRV entry's priority", () => {
  it('defaults to 10 for the zone engine and the name server alike', () => {
    expect(DEFAULT_PRIORITY).toBe(10);
    expect(fromProvider(entry('MX', 'mail.example.com'), Z).priority).toBe(10);
    expect(recordOfEntry(entry('MX', 'mail.example.com'), HOST)!.value).toMatchObject({ preference: 10 });
    expect(fromProvider(entry('SRV', '5 5060 sip.example.com'), Z).priority).toBe(10);
    expect(recordOfEntry(entry('SRV', '5 5060 sip.example.com'), HOST)!.value).toMatchObject({ priority: 10 });
  });

  it('is its own field when given, read by the same rule as a TTL', () => {
    expect(fromProvider(entry('MX', 'mail.example.com', { priority: '20' }), Z).priority).toBe(20);
    const mx = (priority: string) => entry('MX', 'mail.example.com', { priority });
    expect(recordOfEntry(mx('20'), HOST)!.value).toMatchObject({ preference: 20 });
    // Not digits: the provider's default, for both.
    expect(fromProvider(mx(' 20'), Z).priority).toBe(10);
    expect(recordOfEntry(mx(' 20'), HOST)!.value).toMatchObject({ preference: 10 });
  });

  it('is none for a type without one', () => {
    expect(fromProvider(entry('A', '192.0.2.1', { priority: '20' }), Z).priority).toBeUndefined();
  });
});

describe("a TXT entry's text", () => {
  it('"" is the empty text, to the zone engine and the name server', () => {
    expect(txtOfValue('""')).toBe('');
    expect(fromProvider(entry('TXT', '""'), Z).value).toBe('');
    expect(recordOfEntry(entry('TXT', '""'), HOST)!.value).toEqual(['']);
  });

  it('a quoted text is the text with its quotes to a zone (a TXT may begin and end with one)', () => {
    expect(txtOfValue('"v=spf1 -all"')).toBe('"v=spf1 -all"');
    expect(fromProvider(entry('TXT', '"v=spf1 -all"'), Z).value).toBe('"v=spf1 -all"');
    expect(recordOfEntry(entry('TXT', '"v=spf1 -all"'), HOST)!.value).toEqual(['"v=spf1 -all"']);
  });

  it('a token ddedge wrote is found quoted or not (some zones show TXT entries quoted)', () => {
    expect(unquotedTxt('"tok"')).toBe('tok');
    expect(unquotedTxt('tok')).toBe('tok');
    expect(unquotedTxt('"')).toBe('"');
    const quoted = entry('TXT', '"tok"', { entityID: '1' });
    const plain = entry('TXT', 'tok', { entityID: '2' });
    const other = entry('TXT', '"other"', { entityID: '3' });
    expect(entriesWithValue([quoted, plain, other], 'tok').map((e) => e.entityID)).toEqual(['1', '2']);
  });
});

describe('entryMatchesHost: an entry written as the full name or relative to the zone', () => {
  it.each([
    ['home.example.com', true],
    ['Home.Example.com.', true],
    ['home', true],
    ['other', false],
    ['home.example.org', false],
  ])('%j', (name, matches) => expect(entryMatchesHost(name, 'home.example.com', 'example.com')).toBe(matches));
  it('@ and the empty name are the zone', () => {
    expect(entryMatchesHost('@', 'example.com', 'example.com')).toBe(true);
    expect(entryMatchesHost('', 'example.com', 'example.com')).toBe(true);
    expect(entryMatchesHost('@', 'home.example.com', 'example.com')).toBe(false);
  });
});
