// The gateway's DNS side: the shared listener and TSIG guard in front of three kinds of
// message. UPDATE goes to update/handler.ts; queries are answered authoritatively from the zone
// views by the shared responder (REFUSED for zones not served); other opcodes are NOTIMP.
// Zone transfers go to a key allowed to `transfer`, over TCP only (transfer.ts). An UPDATE
// that cannot be read is FORMERR here, with an EDE when it has EDNS (RFC 2136 3.1.1, 3.4.1);
// a signed one already answered is not made again (replay-memory.ts).
import { counted } from '../lib/counted.js';
import { type Clock, secondsOn, systemClock } from '../lib/clock.js';
import { AnswerCache, isCacheable } from '../dns/server/answer-cache.js';
import { EARLIER_RUN, ReplayMemory } from './limits/replay-memory.js';
import { CookieJar } from '../dns/server/cookies.js';
import { appendAdditional, EDE, edeOption, optRecord } from '../dns/wire/edns.js';
import { DnsError } from '../dns/wire/errors.js';
import { formError, readableParts } from '../dns/server/form-error.js';
import type { Signer, TsigFailure } from '../dns/server/tsig-server.js';
import { startDnsListener, type DnsListener } from '../dns/server/listener.js';
import { nameKey } from '../dns/wire/names.js';
import { lowerName } from '../lib/names.js';
import { failure, OUR_EDNS_SIZE, requestHeader, respondToQuery } from '../dns/server/responder.js';
import { answerWithTsig } from '../dns/server/tsig-server.js';
import { acceptedFudge, TSIG_ERROR } from '../dns/wire/tsig.js';
import { decodeMessage, encodeMessage } from '../dns/wire/message.js';
import { RCODE, TYPE_CODES } from '../dns/wire/types.js';
import { AXFR, IXFR, refusedTransfer, transferMessages } from './dns/transfer.js';
import type { SecondaryLog } from './dns/secondaries.js';
import { handleUpdate, type UpdateDeps } from './update/handler.js';
import { OPCODE_UPDATE } from './update/message.js';
import { readUpdateHead } from './update/head.js';
import type { GatewayStats } from './status/stats.js';

export interface GatewayServerOptions extends UpdateDeps {
  host: string;
  port: number;
  /** The TSIG replay window's time: the system's unless a test gives one. */
  clock?: Clock;
  /** Counts each answer by kind, zone and code (for --listen's /metrics). */
  stats?: GatewayStats;
  /**
   * The signed updates acted on, shared by all listeners and kept across restarts (a memory of its own when not given).
   */
  replays?: ReplayMemory;
  /** The transfers made, by client address (the status page's secondaries). */
  secondaries?: SecondaryLog;
}

/** A signed answer's TSIG record: room kept for it in UDP answers (hmac-sha512 with a long key name). */
const TSIG_ROOM = 200;

export async function startGatewayServer(options: GatewayServerOptions): Promise<DnsListener> {
  const cookies = new CookieJar();
  // Signed updates remembered against replay while their TSIG window is open (replay-memory.ts).
  const replays = options.replays ?? new ReplayMemory();
  const nowSeconds = () => secondsOn(options.clock ?? systemClock);
  /** An update signed by `signer`, made once whatever number of times its bytes arrive. */
  const updateOnce = (request: Buffer, signer: Signer, address: string): Promise<Buffer> | Buffer => {
    const mac = signer.tsig.mac.toString('hex');
    const now = nowSeconds();
    const seen = replays.get(signer.key.name, mac, now);
    if (seen === EARLIER_RUN)
      return refusal(
        request,
        'this signed update was acted on before the gateway restarted; sign it again to send it again',
      );
    // The first answer, under the ID this copy came with.
    if (seen) return seen.then((answer) => withId(answer, request.readUInt16BE(0)));
    let start!: () => void;
    const answer = new Promise<Buffer>(
      (resolve, reject) => (start = () => void handleUpdate(request, signer, address, options).then(resolve, reject)),
    );
    if (!replays.remember(signer.key.name, mac, signer.tsig.timeSigned + acceptedFudge(signer.tsig), answer, now)) {
      return refusal(request, 'too many signed updates within their time windows; send it again in a minute');
    }
    start();
    return answer;
  };
  // A zone not read yet (the provider was down at start) is SERVFAIL, not answered as if it were empty.
  const lookup = (q: { name: string; type: number }) => options.views.served.answer(q.name, q.type);
  // Plain unsigned UDP queries (resolvers, the SOA discovery of nsupdate and lego) from the
  // answers' cache, as the sandbox's name server answers; dropped whenever a zone is re-indexed.
  const cachedQuery = new AnswerCache(() => options.views.version).wrap((packet, context) =>
    respondToQuery(packet, context, lookup, { cookies }),
  );
  return startDnsListener({
    host: options.host,
    port: options.port,
    onError: (error) => options.logger.error(`gateway: ${(error as Error).stack ?? String(error)}`),
    handle: (packet, context) => {
      const header = requestHeader(packet, 65535);
      if (!header) return undefined;
      const opcode = (header.flags >> 11) & 0xf;
      const answered =
        context.transport === 'udp' && isCacheable(packet)
          ? cachedQuery(packet, context)
          : answerWithTsig(
              packet,
              (name) => options.keys().keys.get(name),
              (request, signer) => {
                if (opcode === OPCODE_UPDATE) {
                  const malformed = updateFormError(request);
                  if (malformed) return malformed;
                  return signer
                    ? updateOnce(request, signer, context.address)
                    : handleUpdate(request, signer, context.address, options);
                }
                if (opcode === 0 && context.transport === 'tcp' && isTransfer(request))
                  return answerTransfer(request, signer, context.address, options);
                if (opcode === 0)
                  return respondToQuery(request, { ...context, ...(signer ? { reserve: TSIG_ROOM } : {}) }, lookup, {
                    cookies,
                  });
                return failure(header.id, header.flags, RCODE.NOTIMP);
              },
              nowSeconds,
              (tsig, error, why) =>
                logTsigFailure(options, context.address, opcode === OPCODE_UPDATE ? 'update' : 'request', {
                  tsig,
                  error,
                  why,
                }),
            );
      return options.stats ? options.stats.observe(packet, opcode, context.transport, answered) : answered;
    },
  });
}

/** A zone transfer, signed by a key the keys file lets transfer; a refusal is logged as refused updates are. */
function answerTransfer(request: Buffer, signer: Signer | undefined, address: string, options: GatewayServerOptions) {
  const query = decodeMessage(request);
  const key = lowerName(query.questions[0]!.name);
  const index = options.views.names.includes(key) ? options.views.index(key) : undefined;
  // Logged as refused updates are: the client (dig) says only "Transfer failed".
  const refuse = (why: string) => {
    options.refusals?.refused(
      'REFUSED',
      {
        zone: key || '.',
        ...(signer ? { key: signer.key.name, verified: true } : {}),
        client: address,
        kind: 'transfer',
      },
      why,
    );
    return refusedTransfer(query, why);
  };
  if (!index) return refuse(`${key || '.'} is not a zone this gateway serves`);
  if (!signer || !options.keys().transfer.has(signer.key.name))
    return refuse('zone transfers need a TSIG key the keys file lets transfer');
  options.secondaries?.transferred(address, key, query.questions[0]!.type === IXFR ? 'IXFR' : 'AXFR');
  return transferMessages(query, index);
}

/** Logs a request refused for its TSIG, with the cause the client is not told. */
function logTsigFailure(
  options: GatewayServerOptions,
  address: string,
  kind: 'update' | 'request',
  failed: { tsig: Parameters<TsigFailure>[0]; error: number; why: string },
): void {
  const { tsig, error, why } = failed;
  // The log names the cause the client is not told (RFC 8945 keeps BADKEY vague on the wire).
  const known = options.keys().keys.get(nameKey(tsig.keyName));
  const cause =
    error === TSIG_ERROR.BADKEY
      ? known
        ? `the keys file gives key ${known.name} ${known.algorithm}; the message was signed with ` +
          `${tsig.algorithm.replace(/\.$/, '')}`
        : `no key of that name in the keys file (${counted(options.keys().keys.size, 'key')} loaded)`
      : why;
  // BADTIME and BADTRUNC come after the MAC matched: the key is the signer's. BADKEY and BADSIG are a name claimed.
  const verified = error === TSIG_ERROR.BADTIME || error === TSIG_ERROR.BADTRUNC;
  options.refusals?.refused(
    `NOTAUTH/${TSIG_ERROR_NAMES[error] ?? error}`,
    { key: tsig.keyName, verified, client: address, kind },
    cause,
  );
}

/** TSIG errors by number, for the log. */
const TSIG_ERROR_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(TSIG_ERROR).map(([name, code]) => [code, name]),
);

/** Whether a query asks for AXFR or IXFR (read from the question's type without decoding the rest). */
function isTransfer(packet: Buffer): boolean {
  try {
    const question = decodeMessage(packet).questions[0];
    return question !== undefined && (question.type === AXFR || question.type === IXFR) && question.class === 1;
  } catch {
    return false;
  }
}

/**
 * FORMERR for an UPDATE whose zone section is not one SOA question or whose records' framing
 * cannot be followed (RFC 2136 3.1.1); undefined when it can. The records' data is read later,
 * once the signer is known (update/handler.ts).
 */
function updateFormError(packet: Buffer): Buffer | undefined {
  try {
    const { zone } = readUpdateHead(packet);
    if (zone.type !== TYPE_CODES.SOA) return formError(packet, `the zone section asks for type ${zone.type}, not SOA`);
    return undefined;
  } catch (error) {
    if (error instanceof DnsError) return formError(packet, error.message);
    throw error;
  }
}

/** REFUSED for a request, echoing its zone, with an EDE when it has EDNS. */
function refusal(packet: Buffer, why: string): Buffer {
  const { question, hasOpt } = readableParts(packet);
  const bare = encodeMessage({
    id: packet.readUInt16BE(0),
    response: true,
    opcode: OPCODE_UPDATE,
    rcode: RCODE.REFUSED,
    questions: question ? [question] : [],
  });
  return hasOpt
    ? appendAdditional(bare, optRecord({ udpSize: OUR_EDNS_SIZE, options: [edeOption(EDE.NOT_READY, why)] }))
    : bare;
}

function withId(answer: Buffer, id: number): Buffer {
  const copy = Buffer.from(answer);
  copy.writeUInt16BE(id, 0);
  return copy;
}
