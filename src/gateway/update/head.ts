// What an UPDATE says before its records: its ID, its zone section, how many prerequisites,
// updates and additional records it carries, and whether one of them is an OPT (the answer then
// carries an EDE). Read without decoding any record (owners are skipped by their lengths), so
// that an unsigned or over-long message is refused for the cost of its bytes, not of its records
// (a 63 KB message of thousands of records costs no more to refuse than a short one).
import { DnsWireError } from '../../dns/wire/errors.js';
import { nameKey, readName, skipName } from '../../dns/wire/names.js';
import { TYPE_CODES } from '../../dns/wire/types.js';

export interface UpdateHead {
  id: number;
  zone: { name: string; type: number; class: number };
  prerequisites: number;
  updates: number;
  edns: boolean;
}

/** An UPDATE's section counts and its zone section (RFC 2136 2.3); `next` is where its records start. */
export function readZoneSection(packet: Buffer): {
  counts: [number, number, number, number];
  zone: UpdateHead['zone'];
  next: number;
} {
  const counts = [4, 6, 8, 10].map((at) => packet.readUInt16BE(at)) as [number, number, number, number];
  if (counts[0] !== 1) throw new DnsWireError(`an UPDATE names exactly one zone, not ${counts[0]}`);
  const zoneName = readName(packet, 12);
  if (zoneName.next + 4 > packet.length) throw new DnsWireError('the zone section is cut off');
  const zone = {
    name: nameKey(zoneName.name),
    type: packet.readUInt16BE(zoneName.next),
    class: packet.readUInt16BE(zoneName.next + 2),
  };
  return { counts, zone, next: zoneName.next + 4 };
}

/**
 * The head of an UPDATE; throws DnsWireError (FORMERR) when its zone section or its records' framing cannot be read.
 */
export function readUpdateHead(packet: Buffer): UpdateHead {
  if (packet.length < 12) throw new DnsWireError(`a ${packet.length}-byte message is shorter than a DNS header`);
  const { counts, zone, next } = readZoneSection(packet);
  let offset = next;
  let edns = false;
  // Bounded by the counts (at most 3 x 65535) and by the message: each record moves forward.
  const records = counts[1] + counts[2] + counts[3];
  for (let i = 0; i < records; i++) {
    const next = skipName(packet, offset);
    if (next + 10 > packet.length) throw new DnsWireError('a record is cut off');
    if (i >= counts[1] + counts[2] && packet.readUInt16BE(next) === TYPE_CODES.OPT) edns = true;
    offset = next + 10 + packet.readUInt16BE(next + 8);
    if (offset > packet.length) throw new DnsWireError('a record runs past the end of the message');
  }
  return { id: packet.readUInt16BE(0), zone, prerequisites: counts[1], updates: counts[2], edns };
}
