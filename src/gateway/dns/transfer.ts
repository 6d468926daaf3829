// Zone transfer (RFC 5936): the whole zone over TCP, the SOA first and last, in messages of at
// most ~60 KB, to a key the keys file lets `transfer`. IXFR is answered the same way, with the
// whole zone (RFC 1995 section 4 allows it). The TSIG guard signs each message in turn.
import type { ZoneIndex } from '../../dns/server/authority.js';
import { appendAdditional, EDE, edeOption, ednsOf, optRecord } from '../../dns/wire/edns.js';
import { encodeMessage } from '../../dns/wire/message.js';
import { OUR_EDNS_SIZE } from '../../dns/server/responder.js';
import type { DnsMessage, DnsRecord } from '../../dns/wire/types.js';

export const AXFR = 252;
export const IXFR = 251;
const MESSAGE_BYTES = 60_000;

/** The messages of a transfer of `zone`, answering `query`. */
export function transferMessages(query: DnsMessage, zone: ZoneIndex): Buffer[] {
  const question = query.questions[0]!;
  const base = { id: query.id, response: true, authoritative: true, opcode: 0 };
  const records: DnsRecord[] = [zone.soa];
  for (const list of zone.nodes.values()) for (const r of list) if (r.type !== 'SOA') records.push(r);
  records.push(zone.soa);
  const messages: Buffer[] = [];
  let batch: DnsRecord[] = [];
  let size = 0;
  const flush = () => {
    if (!batch.length) return;
    messages.push(encodeMessage({ ...base, questions: messages.length ? [] : [question], answers: batch }));
    batch = [];
    size = 0;
  };
  for (const record of records) {
    // A record's size without compression: an upper bound of what it adds to a message.
    const alone = encodeMessage({ id: 0, questions: [], answers: [record] }).length - 12;
    if (size + alone > MESSAGE_BYTES) flush();
    batch.push(record);
    size += alone;
  }
  flush();
  return messages;
}

/** A refused transfer, with an EDE saying why when the client speaks EDNS. */
export function refusedTransfer(query: DnsMessage, why: string): Buffer {
  const bare = encodeMessage({ id: query.id, response: true, rcode: 5, questions: query.questions.slice(0, 1) });
  return ednsOf(query)
    ? appendAdditional(bare, optRecord({ udpSize: OUR_EDNS_SIZE, options: [edeOption(EDE.PROHIBITED, why)] }))
    : bare;
}
