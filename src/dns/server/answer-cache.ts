// The bytes of recent answers, keyed by the question's bytes, as authoritative servers keep
// them (NSD and Knot answer from precompiled packets): a repeated question costs a lookup and
// a copy instead of a decode, a zone lookup and an encode. Under load this more than doubled
// the UDP queries answered per second (bench/dns.mjs).
//
// Only a plain query is cached: one question, no answer or authority records, and at most an
// EDNS OPT record without options. Everything else (cookies, whose answer depends on the
// client's address and the time; TSIG, signed per message; updates; transfers) goes through
// the responder each time. For a cacheable query the answer depends on nothing but the bytes
// after the ID (flags, question with its case, OPT size and version), the transport and the
// zones: so the key is those bytes and the transport, and the whole cache is dropped when
// `version()` (the zones' change counter) moves. Bounded: at most MAX_ENTRIES answers of
// questions of at most MAX_KEY_BYTES and answers of at most MAX_ANSWER_BYTES (about
// 7 MiB at most), the oldest dropped first.
import type { QueryContext } from './responder.js';

export type Respond = (packet: Buffer, context: QueryContext) => Buffer | undefined;

const MAX_ENTRIES = 4096;
/** Larger answers (TCP) are rare and would make the bound a matter of megabytes per entry. */
const MAX_ANSWER_BYTES = 1232;
/** A cacheable query is short: a header, one name of at most 255 bytes, its type and class, an empty OPT. */
const MAX_KEY_BYTES = 12 + 255 + 4 + 11;
const OPT_BYTES = 11;
const TYPE_OPT = 41;

export class AnswerCache {
  private readonly answers = new Map<string, Buffer>();
  private seenVersion: number;

  constructor(private readonly version: () => number) {
    this.seenVersion = version();
  }

  /** `respond`, answering a cacheable question it answered before from the bytes it gave then. */
  wrap(respond: Respond): Respond {
    return (packet, context) => {
      if (!isCacheable(packet)) return respond(packet, context);
      const current = this.version();
      if (current !== this.seenVersion) {
        this.answers.clear();
        this.seenVersion = current;
      }
      const key = (context.transport === 'udp' ? 'u' : 't') + packet.toString('latin1', 2);
      const known = this.answers.get(key);
      if (known) {
        const answer = Buffer.allocUnsafe(known.length);
        known.copy(answer);
        answer[0] = packet[0]!;
        answer[1] = packet[1]!;
        return answer;
      }
      const answer = respond(packet, context);
      // The context's reserve (room for a TSIG) is not in the key: only unsigned queries come here, with none.
      if (answer && answer.length <= MAX_ANSWER_BYTES && !context.reserve) {
        if (this.answers.size >= MAX_ENTRIES) this.answers.delete(this.answers.keys().next().value!);
        this.answers.set(key, Buffer.from(answer));
      }
      return answer;
    };
  }

  get size(): number {
    return this.answers.size;
  }
}

/**
 * A query of one question whose answer depends only on its bytes: QR clear, opcode QUERY, counts
 * 1/0/0 and 0 or 1 additional, the name written out (no pointer), and after the question nothing
 * or an OPT record at the root with no options.
 */
export function isCacheable(packet: Buffer): boolean {
  const length = packet.length;
  if (length < 17 || length > MAX_KEY_BYTES) return false;
  // QR 0, opcode 0.
  if (packet[2]! & 0xf8) return false;
  if (
    packet[4] !== 0 ||
    packet[5] !== 1 ||
    packet[6] !== 0 ||
    packet[7] !== 0 ||
    packet[8] !== 0 ||
    packet[9] !== 0 ||
    packet[10] !== 0
  )
    return false;
  const additional = packet[11]!;
  if (additional > 1) return false;
  let at = 12;
  // A name has at most 127 labels; a length over 63 is a pointer (or reserved): not cached.
  for (let labels = 0; ; labels++) {
    const size = packet[at];
    if (size === undefined || size > 63 || labels > 127) return false;
    at += 1 + size;
    if (size === 0) break;
  }
  at += 4;
  if (additional === 0) return at === length;
  // OPT: root name, type 41, class (UDP size), TTL (extended rcode, version, flags), RDLENGTH 0.
  return (
    at + OPT_BYTES === length &&
    packet[at] === 0 &&
    packet.readUInt16BE(at + 1) === TYPE_OPT &&
    packet[at + 9] === 0 &&
    packet[at + 10] === 0
  );
}
