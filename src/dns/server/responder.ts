// One query packet in, the answer's bytes out, for an authoritative server: the checks every
// query goes through (a response is never answered; one question; class IN; no transfers here),
// EDNS (RFC 6891: BADVERS for versions above 0), cookies (RFC 7873), and the size rules that
// keep UDP from amplifying: an answer over UDP is at most 512 bytes for a client whose address
// is not verified by a cookie, else at most its EDNS size (and ours, 1232); beyond that only the
// header and question go out with TC set, and the client asks again over TCP (RFC 7766).
// ANY over UDP gets one RRset of the name, not all of them (RFC 8482).
import type { ZoneAnswer } from './authority.js';
import type { CookieJar } from './cookies.js';
import { appendAdditional, EDE, edeOption, ednsOf, optRecord, OPTION, type AnswerOpt } from '../wire/edns.js';
import { DnsError } from '../wire/errors.js';
import { decodeMessage, encodeMessage, type EncodeOptions } from '../wire/message.js';
import { CLASS_IN, RCODE, rcodeName, TYPE_CODES, typeName, type DnsMessage, type DnsQuestion } from '../wire/types.js';

type Transport = 'udp' | 'tcp';

export interface QueryContext {
  transport: Transport;
  /** The client's address (for cookies). */
  address: string;
  /** Bytes to leave free in a UDP answer for what is added after it (a TSIG record). */
  reserve?: number;
}

export interface ResponderOptions {
  cookies: CookieJar;
  log?: (line: string) => void;
}

/** The UDP size we offer in our OPT record, and the most we send over UDP whatever is asked. */
export const OUR_EDNS_SIZE = 1232;
const CLASSIC_UDP_BYTES = 512;
/** Queries longer than this are not read (a question with EDNS options is far smaller). */
const MAX_QUERY_BYTES = 4096;
const BADVERS = 16;

/**
 * The header of a packet worth answering, or undefined to stay silent (too short, too long, or a response: answering
 * one could start a loop).
 */
export function requestHeader(packet: Buffer, maxBytes: number): { id: number; flags: number } | undefined {
  if (packet.length < 12 || packet.length > maxBytes) return undefined;
  const flags = packet.readUInt16BE(2);
  if (flags & 0x8000) return undefined;
  return { id: packet.readUInt16BE(0), flags };
}

/** A bare error answer echoing the header's ID and RD bit. */
export function failure(id: number, flags: number, rcode: number, questions: DnsQuestion[] = []): Buffer {
  return encodeMessage({
    id,
    response: true,
    opcode: (flags >> 11) & 0xf,
    recursionDesired: Boolean(flags & 0x0100),
    rcode,
    questions,
  });
}

/**
 * The bytes to send back for a standard query, or undefined to stay silent. `answer` gives the
 * zone's answer to the question; `decoded` may be passed when the caller decoded the packet already.
 */
export function respondToQuery(
  packet: Buffer,
  context: QueryContext,
  answer: (q: DnsQuestion) => ZoneAnswer,
  options: ResponderOptions,
  decoded?: DnsMessage,
): Buffer | undefined {
  const header = requestHeader(packet, context.transport === 'udp' ? MAX_QUERY_BYTES : 65535);
  if (!header) return undefined;
  const { id, flags } = header;
  let query: DnsMessage;
  try {
    query = decoded ?? decodeMessage(packet);
  } catch (error) {
    if (error instanceof DnsError) return failure(id, flags, RCODE.FORMERR);
    throw error;
  }
  const question = query.questions[0];
  if (query.opcode !== 0) return failure(id, flags, RCODE.NOTIMP, query.questions.slice(0, 1));
  if (query.questions.length !== 1 || !question) return failure(id, flags, RCODE.FORMERR);

  // RFC 6891 6.1.1: more than one OPT, or one not owned by the root, is FORMERR.
  const opts = query.additional.filter((r) => r.type === 'OPT');
  if (opts.length > 1 || (opts[0] && opts[0].name !== '' && opts[0].name !== '.'))
    return failure(id, flags, RCODE.FORMERR, [question]);
  const edns = ednsOf(query);
  const cookie = options.cookies.check(edns?.options.get(OPTION.COOKIE), context.address);
  if (cookie.kind === 'malformed') return failure(id, flags, RCODE.FORMERR, [question]);
  const opt = (extra: AnswerOpt['options'] = [], rcode = 0): Buffer[] =>
    edns
      ? [
          optRecord({
            udpSize: OUR_EDNS_SIZE,
            rcode,
            options: [...(cookie.kind === 'cookie' ? [{ code: OPTION.COOKIE, data: cookie.reply }] : []), ...extra],
          }),
        ]
      : [];
  const base: EncodeOptions = { id, response: true, recursionDesired: Boolean(flags & 0x0100), questions: [question] };
  if (edns && edns.version > 0)
    return appendAdditional(encodeMessage({ ...base, rcode: BADVERS & 0xf }), ...opt([], BADVERS));
  // Zone transfers (IXFR 251, AXFR 252) are served by the gateway over TCP, never here; other classes not at all.
  if (question.class !== CLASS_IN || question.type === 251 || question.type === 252) {
    return appendAdditional(
      encodeMessage({ ...base, rcode: RCODE.REFUSED }),
      ...opt([
        edeOption(
          EDE.NOT_SUPPORTED,
          question.class !== CLASS_IN
            ? 'only class IN is served'
            : 'zone transfers need TCP and a key allowed to transfer',
        ),
      ]),
    );
  }

  let result = answer(question);
  if (question.type === TYPE_CODES.ANY && context.transport === 'udp' && result.answers.length)
    result = minimalAny(result);
  const extra =
    result.rcode === RCODE.REFUSED ? [edeOption(EDE.NOT_AUTHORITATIVE, 'not a zone this server answers for')] : [];
  const optBytes = opt(extra);
  const limit =
    context.transport === 'tcp'
      ? 65535
      : cookie.kind === 'cookie' && cookie.verified && edns
        ? Math.min(OUR_EDNS_SIZE, Math.max(CLASSIC_UDP_BYTES, edns.udpSize))
        : CLASSIC_UDP_BYTES;
  const room = limit - optBytes.reduce((n, b) => n + b.length, 0) - (context.reserve ?? 0);
  const { bytes, truncated } = encodeWithin(result, base, room, context.transport);
  options.log?.(
    `DNS ${context.transport} ${question.name} ${typeName(question.type)} -> ${rcodeName(result.rcode)} ` +
      `${result.answers.length} answer${result.answers.length === 1 ? '' : 's'}${truncated ? ' (truncated)' : ''}`,
  );
  return appendAdditional(bytes, ...optBytes);
}

/**
 * The answer's message within `room` bytes: without its optional glue if that makes it fit, else
 * truncated (TC); SERVFAIL when it cannot be written at all.
 */
function encodeWithin(
  result: ZoneAnswer,
  base: EncodeOptions,
  room: number,
  transport: QueryContext['transport'],
): { bytes: Buffer; truncated: boolean } {
  // Written out, not spread from `base`: a spread here was a third of a query's own cost.
  const head: EncodeOptions = {
    id: base.id,
    response: true,
    recursionDesired: base.recursionDesired,
    questions: base.questions,
    authoritative: result.authoritative,
    rcode: result.rcode,
  };
  try {
    const { answers, authority, additional } = result;
    let bytes = encodeMessage({
      id: base.id,
      response: true,
      recursionDesired: head.recursionDesired,
      questions: head.questions,
      authoritative: head.authoritative,
      rcode: head.rcode,
      answers,
      authority,
      additional,
    });
    // Glue of an answer is optional: without it the answer may fit; a referral's is not (RFC 9471).
    if (bytes.length > room && !result.authority.some((r) => r.type === 'NS'))
      bytes = encodeMessage({ ...head, answers: result.answers, authority: result.authority });
    if (bytes.length > room) return { bytes: encodeMessage({ ...head, truncated: true }), truncated: true };
    return { bytes, truncated: false };
  } catch (error) {
    if (!(error instanceof DnsError)) throw error;
    // An answer larger than any message (the name compressor's bound, names.ts) is too large for
    // UDP first of all: TC, as for any answer that does not fit; TCP, with nothing larger, fails.
    const tooLarge = transport === 'udp' && /would exceed \d+ bytes/.test(error.message);
    const bytes = encodeMessage(tooLarge ? { ...head, truncated: true } : { ...base, rcode: RCODE.SERVFAIL });
    return { bytes, truncated: tooLarge };
  }
}

/** One RRset of the name asked (RFC 8482 4.1: a subset is a complete answer to ANY). */
function minimalAny(result: ZoneAnswer): ZoneAnswer {
  const first = result.answers[0]!;
  return {
    ...result,
    answers: result.answers.filter((r) => r.type === first.type && r.name === first.name),
    additional: [],
  };
}
