// FORMERR for a request that cannot be read whole: the header's ID, opcode and RD echoed, the
// first question when it can be read, and, when the request carries an OPT record that can be
// reached before the damage, an OPT with an Extended DNS Error saying what was wrong (RFC 8914;
// RFC 6891 allows no OPT in an answer to a request without one). Records are walked by their
// lengths only, so a record whose data is broken does not hide an OPT after it.
import { appendAdditional, EDE, edeOption, optRecord } from '../wire/edns.js';
import { encodeMessage } from '../wire/message.js';
import { readName, skipName } from '../wire/names.js';
import { RCODE, TYPE_CODES, type DnsQuestion } from '../wire/types.js';

/** The UDP size offered in the OPT of an error answer (the responder's). */
const ERROR_EDNS_SIZE = 1232;

/** What can be read of a damaged request: its first question and whether an OPT was reached. */
export function readableParts(packet: Buffer): { question?: DnsQuestion; hasOpt: boolean } {
  const counts = [4, 6, 8, 10].map((at) => packet.readUInt16BE(at)) as [number, number, number, number];
  let question: DnsQuestion | undefined;
  let offset = 12;
  try {
    for (let i = 0; i < counts[0]; i++) {
      const { name, next } = readName(packet, offset);
      if (next + 4 > packet.length) return { hasOpt: false };
      if (i === 0) question = { name, type: packet.readUInt16BE(next), class: packet.readUInt16BE(next + 2) };
      offset = next + 4;
    }
    // Bounded by the counts (at most 3 x 65535) and by the message: each record moves forward.
    for (let i = 0; i < counts[1] + counts[2] + counts[3]; i++) {
      const next = skipName(packet, offset);
      if (next + 10 > packet.length) break;
      if (packet.readUInt16BE(next) === TYPE_CODES.OPT) return { ...(question ? { question } : {}), hasOpt: true };
      offset = next + 10 + packet.readUInt16BE(next + 8);
    }
  } catch {
    // A name that cannot be read ends the walk: what was found so far stands.
  }
  return { ...(question ? { question } : {}), hasOpt: false };
}

/** FORMERR for `packet` (at least a 12-byte header), saying `why` in an EDE when the request spoke EDNS. */
export function formError(packet: Buffer, why: string): Buffer {
  const flags = packet.readUInt16BE(2);
  const { question, hasOpt } = readableParts(packet);
  const head = {
    id: packet.readUInt16BE(0),
    response: true,
    opcode: (flags >> 11) & 0xf,
    recursionDesired: Boolean(flags & 0x0100),
    rcode: RCODE.FORMERR,
  };
  let bare: Buffer;
  try {
    bare = encodeMessage({ ...head, questions: question ? [question] : [] });
  } catch {
    // A question whose name cannot be written back (too long once escaped) is left out.
    bare = encodeMessage({ ...head, questions: [] });
  }
  return hasOpt
    ? appendAdditional(
        bare,
        optRecord({ udpSize: ERROR_EDNS_SIZE, options: [edeOption(EDE.OTHER, `malformed message: ${why}`)] }),
      )
    : bare;
}
