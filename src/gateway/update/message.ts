// An UPDATE message (RFC 2136 section 2) as its four sections: the zone, the prerequisites, the
// updates and the additional data. Unlike a query, each record's class carries meaning here
// (ANY and NONE select the prerequisite and update forms), so records are read with it kept.
import { decodeData, readRecordHead } from '../../dns/wire/message.js';
import { textRdataNotUtf8 } from '../../dns/wire/txt-strings.js';
import { nameKey } from '../../dns/wire/names.js';
import type { DnsRecord } from '../../dns/wire/types.js';
import { readZoneSection } from './head.js';
import { TYPE_DHCID } from '../dhcid/store.js';

export { TYPE_DHCID };

export const OPCODE_UPDATE = 5;
export const CLASS = { IN: 1, NONE: 254, ANY: 255 } as const;
export const TYPE_ANY = 255;

export interface UpdateRecord {
  /** The owner as a name key (lower case, no trailing dot). */
  name: string;
  type: number;
  class: number;
  ttl: number;
  /** The decoded data, when the record has any. */
  data?: DnsRecord;
  /** Why its text (TXT, SPF, CAA) is not UTF-8, when it is not: `data` then holds U+FFFD in place of the bytes. */
  notUtf8?: string;
  /**
   * An add that names no TTL (the gateway's own doors; a message read from the wire always names one): the record
   * takes the TTL its RRset has as the provider holds it (records.ts heldTtl), the provider's default included.
   */
  ttlAsHeld?: true;
}

export interface UpdateMessage {
  id: number;
  zone: { name: string; type: number; class: number };
  prerequisites: UpdateRecord[];
  updates: UpdateRecord[];
  /** Whether the client sent an OPT record (then the answer carries one, with an EDE). */
  edns: boolean;
}

/** Reads an UPDATE; throws DnsWireError (FORMERR) when it is not one that can be read. */
export function readUpdate(packet: Buffer): UpdateMessage {
  const { counts, zone, next } = readZoneSection(packet);
  let offset = next;
  const section = (count: number): UpdateRecord[] => {
    const records: UpdateRecord[] = [];
    for (let i = 0; i < count; i++) {
      const { name, type, klass, ttl, start, end } = readRecordHead(packet, offset);
      const record: UpdateRecord = { name: nameKey(name), type, class: klass, ttl };
      if (end > start) {
        record.data = { name: nameKey(name), ttl, ...decodeData(packet, type, start, end) } as DnsRecord;
        const notUtf8 = textRdataNotUtf8(type, packet.subarray(start, end));
        if (notUtf8) record.notUtf8 = notUtf8;
      }
      records.push(record);
      offset = end;
    }
    return records;
  };
  const prerequisites = section(counts[1]);
  const updates = section(counts[2]);
  const additional = section(counts[3]);
  return { id: packet.readUInt16BE(0), zone, prerequisites, updates, edns: additional.some((r) => r.type === 41) };
}
