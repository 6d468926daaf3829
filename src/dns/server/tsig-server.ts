// TSIG around a server's handler: a signed request is verified before the handler sees it, and
// whatever the handler answers goes back signed with the same key (every message of a zone
// transfer). A request whose TSIG fails is answered here, NOTAUTH with the TSIG error: BADKEY
// and BADSIG unsigned, BADTIME signed with the server's time (RFC 8945 5.2-5.3). An unsigned
// request reaches the handler with no key: what it may do then is the handler's decision.
import { appendAdditional, EDE, edeOption, optRecord } from '../wire/edns.js';
import { DnsError } from '../wire/errors.js';
import { encodeMessage } from '../wire/message.js';
import { readName, skipName } from '../wire/names.js';
import { OUR_EDNS_SIZE, requestHeader } from './responder.js';
import { TYPE_CODES, type DnsQuestion } from '../wire/types.js';
import { formError } from './form-error.js';
import {
  findTsig,
  RCODE_NOTAUTH,
  signBadTime,
  signBadTrunc,
  signMessage,
  TSIG_ERROR,
  TsigStream,
  unsignedError,
  verifyRequest,
  type TsigCheck,
  type TsigKey,
  type TsigRecord,
} from '../wire/tsig.js';
import type { Answer } from './listener.js';

export interface Signer {
  key: TsigKey;
  tsig: TsigRecord;
}

export type SignedHandler = (packet: Buffer, signer: Signer | undefined) => Answer | Promise<Answer>;

const WHY: Record<number, string> = {
  [TSIG_ERROR.BADKEY]: 'TSIG: the key is unknown here, or used with another algorithm',
  [TSIG_ERROR.BADSIG]: 'TSIG: the signature does not match (wrong secret, or the message was changed)',
  [TSIG_ERROR.BADTIME]: 'TSIG: the time signed is outside the allowed fudge; check the clocks',
  [TSIG_ERROR.BADTRUNC]: 'TSIG: the MAC is truncated; this server takes whole MACs only',
};

/** Told of every request whose TSIG fails, with the TSIG error and the reason the client is given. */
export type TsigFailure = (tsig: TsigRecord, error: number, why: string) => void;

/** Answers `packet` through `handler`, verifying and signing as above. `nowSeconds` is read once per message. */
export async function answerWithTsig(
  packet: Buffer,
  keyOf: (name: string) => TsigKey | undefined,
  handler: SignedHandler,
  nowSeconds: () => number,
  onFailure?: TsigFailure,
): Promise<Answer> {
  const header = requestHeader(packet, 65535);
  if (!header) return undefined;
  let tsig: TsigRecord | undefined;
  try {
    tsig = findTsig(packet);
  } catch (error) {
    if (error instanceof DnsError) return formError(packet, error.message);
    throw error;
  }
  if (!tsig) return handler(packet, undefined);
  const now = nowSeconds();
  let check: TsigCheck;
  try {
    check = verifyRequest(packet, tsig, keyOf, now);
  } catch (error) {
    if (error instanceof DnsError) return formError(packet, error.message);
    throw error;
  }
  if (!check.ok) {
    onFailure?.(tsig, check.error, WHY[check.error] ?? 'TSIG failed');
    let bare: Buffer;
    try {
      // The header and question only: an update's records need not be readable as a query's are.
      const { questions, hasOpt } = outline(packet);
      bare = encodeMessage({
        id: header.id,
        response: true,
        opcode: (header.flags >> 11) & 0xf,
        recursionDesired: Boolean(header.flags & 0x0100),
        rcode: RCODE_NOTAUTH,
        questions,
      });
      if (hasOpt)
        bare = appendAdditional(
          bare,
          optRecord({
            udpSize: OUR_EDNS_SIZE,
            options: [edeOption(EDE.PROHIBITED, WHY[check.error] ?? 'TSIG failed')],
          }),
        );
    } catch (error) {
      if (error instanceof DnsError) return formError(packet, error.message);
      throw error;
    }
    if (check.error === TSIG_ERROR.BADTIME && check.key) return signBadTime(bare, check.key, tsig, now);
    if (check.error === TSIG_ERROR.BADTRUNC && check.key) return signBadTrunc(bare, check.key, tsig, now);
    return unsignedError(bare, tsig, check.error);
  }
  const answer = await handler(packet, { key: check.key, tsig });
  if (answer === undefined) return undefined;
  const signedAt = nowSeconds();
  if (!Array.isArray(answer)) return signMessage(answer, check.key, tsig.mac, { timeSigned: signedAt }).message;
  const stream = new TsigStream(check.key, tsig.mac);
  return answer.map((message) => stream.sign(message, signedAt));
}

/** The questions of a message, and whether it carries an OPT record, without reading any record's data. */
function outline(packet: Buffer): { questions: DnsQuestion[]; hasOpt: boolean } {
  const counts = [4, 6, 8, 10].map((at) => packet.readUInt16BE(at)) as [number, number, number, number];
  const questions: DnsQuestion[] = [];
  let offset = 12;
  for (let i = 0; i < counts[0]; i++) {
    const { name, next } = readName(packet, offset);
    if (next + 4 > packet.length) throw new DnsError('malformed', 'a question is cut off');
    questions.push({ name, type: packet.readUInt16BE(next), class: packet.readUInt16BE(next + 2) });
    offset = next + 4;
  }
  let hasOpt = false;
  for (let i = 0; i < counts[1] + counts[2] + counts[3]; i++) {
    const next = skipName(packet, offset);
    if (next + 10 > packet.length) throw new DnsError('malformed', 'a record is cut off');
    hasOpt ||= packet.readUInt16BE(next) === TYPE_CODES.OPT;
    offset = next + 10 + packet.readUInt16BE(next + 8);
  }
  return { questions: questions.slice(0, 1), hasOpt };
}
