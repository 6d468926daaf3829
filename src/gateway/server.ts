// The gateway's DNS side: the shared listener and TSIG guard in front of three kinds of
// message. UPDATE goes to update-handler.ts; queries are answered authoritatively from the zone
// views by the shared responder (REFUSED for zones not served); other opcodes are NOTIMP.
// Zone transfers go to a key allowed to `transfer`, over TCP only (transfer.ts).
import { CookieJar } from '../dns/cookies.js';
import { answerFromZone } from '../dns/authority.js';
import { startDnsListener, type DnsListener } from '../dns/listener.js';
import { nameKey } from '../dns/names.js';
import { failure, requestHeader, respondToQuery } from '../dns/responder.js';
import { answerWithTsig } from '../dns/tsig-server.js';
import { decodeMessage } from '../dns/message.js';
import { RCODE } from '../dns/types.js';
import { AXFR, IXFR, refusedTransfer, transferMessages } from './transfer.js';
import { handleUpdate, type UpdateDeps } from './update-handler.js';
import { OPCODE_UPDATE } from './update-message.js';
import type { GatewayStats } from './stats.js';
import { NEGATIVE_TTL } from './zone-views.js';

export interface GatewayServerOptions extends UpdateDeps {
  host: string;
  port: number;
  /** Counts each answer by kind, zone and code (for --listen's /metrics). */
  stats?: GatewayStats;
}

/** A signed answer's TSIG record: room kept for it in UDP answers (hmac-sha512 with a long key name). */
const TSIG_ROOM = 200;

export async function startGatewayServer(options: GatewayServerOptions): Promise<DnsListener> {
  const cookies = new CookieJar();
  const lookup = (q: { name: string; type: number }) => {
    const zone = options.views.zoneOf(nameKey(q.name));
    const index = zone === undefined ? undefined : options.views.index(zone);
    // A zone not read yet (the provider was down at start) is not answered as if it were empty.
    if (!index) return { rcode: zone === undefined ? RCODE.REFUSED : RCODE.SERVFAIL, authoritative: false, answers: [], authority: [], additional: [] };
    return answerFromZone(index, q.name, q.type, NEGATIVE_TTL);
  };
  return startDnsListener({
    host: options.host,
    port: options.port,
    onError: (error) => options.logger.error(`gateway: ${(error as Error).stack ?? String(error)}`),
    handle: (packet, context) => {
      const header = requestHeader(packet, 65535);
      if (!header) return undefined;
      const opcode = (header.flags >> 11) & 0xf;
      const answered = answerWithTsig(
        packet,
        (name) => options.keys().keys.get(name),
        (request, signer) => {
          if (opcode === OPCODE_UPDATE) return handleUpdate(request, signer, context.address, options);
          if (opcode === 0 && context.transport === 'tcp' && isTransfer(request)) {
            const query = decodeMessage(request);
            const key = query.questions[0]!.name.toLowerCase().replace(/\.$/, '');
            const index = options.views.names.includes(key) ? options.views.index(key) : undefined;
            if (!index) return refusedTransfer(query, `${key || '.'} is not a zone this gateway serves`);
            if (!signer || !options.keys().transfer.has(signer.key.name)) return refusedTransfer(query, 'zone transfers need a TSIG key the keys file lets transfer');
            return transferMessages(query, index);
          }
          if (opcode === 0) return respondToQuery(request, { ...context, ...(signer ? { reserve: TSIG_ROOM } : {}) }, lookup, { cookies });
          return failure(header.id, header.flags, RCODE.NOTIMP);
        },
        () => Math.floor(Date.now() / 1000),
      );
      return options.stats ? options.stats.observe(packet, opcode, context.transport, answered) : answered;
    },
  });
}

/** Whether a query asks for AXFR or IXFR (read from the question's type without decoding the rest). */
function isTransfer(packet: Buffer): boolean {
  try {
    const question = decodeMessage(packet).questions[0];
    return question !== undefined && (question.type === AXFR || question.type === IXFR) && question.class === 1;
  } catch {
    return false;
  }
}
