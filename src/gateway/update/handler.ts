// One UPDATE, from its message to its answer: the zone must be served (NOTAUTH), the message
// signed by a known key (the TSIG guard answers bad signatures before this runs) and of a
// bounded size; then batch.ts reads the zone afresh, evaluates it (rules.ts) and
// has the zone engine write it, with the updates that arrived meanwhile. Every non-NOERROR
// answer carries an EDE when the client speaks EDNS (RFC 6891 allows no OPT otherwise).
import { appendAdditional, EDE, edeOption, optRecord } from '../../dns/wire/edns.js';
import { DnsError } from '../../dns/wire/errors.js';
import { encodeMessage } from '../../dns/wire/message.js';
import { OUR_EDNS_SIZE } from '../../dns/server/responder.js';
import type { Signer } from '../../dns/server/tsig-server.js';
import type { BatchDeps } from './batch-deps.js';
import type { UpdateQueue } from './update-queue.js';
import { OPCODE_UPDATE, readUpdate, type UpdateMessage } from './message.js';
import { readUpdateHead, type UpdateHead } from './head.js';
import { formError } from '../../dns/server/form-error.js';
import { RCODE_UPDATE, grantsFirst, unfitOwner, unfitText } from './rules.js';
import { grantsFor, mayChangeIn } from '../keys/grants.js';
import { MAX_UPDATE_RECORDS } from './limits.js';
import { costlyPrerequisites } from './reading.js';
import { rcodeName } from '../../dns/wire/types.js';
import type { RefusalLog } from '../limits/refusal-log.js';

export interface UpdateDeps extends BatchDeps {
  /** The gateway's one queue of updates, shared by both doors. */
  updates: UpdateQueue;
  /** Set once the gateway is stopping: updates not yet started are refused, those in flight finish. */
  stopping?: () => boolean;
  /** Updates being made; the gateway waits for them before it exits. */
  inFlight?: Set<Promise<unknown>>;
  /** Where each refusal is logged with its reason (clients without EDNS never see it). */
  refusals?: RefusalLog;
}

export async function handleUpdate(
  packet: Buffer,
  signer: Signer | undefined,
  client: string,
  deps: UpdateDeps,
): Promise<Buffer> {
  // The zone, the counts and the signer are judged before any record is decoded: a message of
  // thousands of records from anyone must cost no more than its bytes (head.ts).
  let head: UpdateHead;
  try {
    head = readUpdateHead(packet);
  } catch (error) {
    if (!(error instanceof DnsError)) throw error;
    return formError(packet, error.message);
  }
  const answer = (rcode: number, ede?: { code: number; why: string }) => {
    if (rcode !== 0)
      deps.refusals?.refused(
        rcodeName(rcode),
        { zone: head.zone.name || '.', key: signer?.key.name, verified: signer !== undefined, client },
        ede?.why ?? 'no reason given',
      );
    const bare = encodeMessage({ id: head.id, response: true, opcode: OPCODE_UPDATE, rcode, questions: [head.zone] });
    return head.edns
      ? appendAdditional(
          bare,
          optRecord({ udpSize: OUR_EDNS_SIZE, options: ede ? [edeOption(ede.code, ede.why)] : [] }),
        )
      : bare;
  };
  const zone = deps.views.names.find((z) => z === head.zone.name);
  if (!zone || head.zone.class !== 1 || head.zone.type !== 6)
    return answer(RCODE_UPDATE.NOTAUTH, {
      code: EDE.NOT_AUTHORITATIVE,
      why: `${head.zone.name || '.'} is not a zone this gateway serves`,
    });
  if (!signer)
    return answer(RCODE_UPDATE.NOTAUTH, { code: EDE.PROHIBITED, why: 'updates must be signed with a TSIG key' });
  // Each record may cost a provider call: a message of thousands is refused before any is read.
  if (head.prerequisites + head.updates > MAX_UPDATE_RECORDS)
    return answer(RCODE_UPDATE.REFUSED, {
      code: EDE.PROHIBITED,
      why:
        `an update may carry at most ${MAX_UPDATE_RECORDS} records (this one has ` +
        `${head.prerequisites + head.updates}); split it`,
    });
  // Not decodeMessage: an update's records may carry no data (a delete of an A RRset), which a query's reader refuses.
  let message: UpdateMessage;
  try {
    message = readUpdate(packet);
  } catch (error) {
    if (!(error instanceof DnsError)) throw error;
    return formError(packet, error.message);
  }
  // A name the provider cannot hold is refused here, before the zone is read or batched with other keys' updates.
  // So is text the provider cannot hold as sent (bytes that are not UTF-8).
  const unfit = unfitOwner(message) ?? unfitText(message);
  if (unfit && !unfit.ok) return answer(unfit.rcode, { code: unfit.ede, why: unfit.why });
  if (deps.stopping?.())
    return answer(RCODE_UPDATE.REFUSED, { code: EDE.NOT_READY, why: 'the gateway is stopping; send the update again' });
  const keys = deps.keys();
  if (!mayChangeIn(keys, signer.key.name, zone))
    return answer(RCODE_UPDATE.REFUSED, {
      code: EDE.PROHIBITED,
      why: `the key ${signer.key.name} may change nothing in ${zone}`,
    });
  const early = grantsFirst(
    message,
    zone,
    (owner, type) => grantsFor(keys, signer.key.name, zone, owner, type).length > 0,
  );
  if (early && !early.ok) return answer(early.rcode, { code: early.ede, why: early.why });
  // A name outside the zone is never read (batch-read.ts: it holds nothing of the zone, and its
  // filter, "t" say, may list every entry); one costly to read is refused here.
  const costly = costlyPrerequisites(message, zone, deps.views);
  if (costly) return answer(costly.rcode, { code: costly.ede, why: costly.why });
  const run = deps.updates.enqueue(zone, { key: signer.key.name, client, message });
  deps.inFlight?.add(run);
  void run.finally(() => deps.inFlight?.delete(run));
  const outcome = await run;
  return answer(outcome.rcode, outcome.rcode === 0 ? undefined : { code: outcome.ede, why: outcome.why });
}
