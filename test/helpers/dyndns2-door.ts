// The dyndns2 door's deps in-process: an in-memory zone and its batches (update-batch.ts: alice
// and bob, each granted A records in example.com), a guess limit and a refusal log on a clock
// that stands still, and a call budget the test spends. Requests are answered as door.ts
// answers them, without HTTP.
import { type DoorAnswer, type DoorDeps, answerRequest } from '../../src/gateway/dyndns2/door.js';
import { GuessLimit } from '../../src/gateway/limits/guess-limit.js';
import { readParameters, readRequest } from '../../src/gateway/dyndns2/request.js';
import { RefusalLog } from '../../src/gateway/limits/refusal-log.js';
import { UpdateQueue } from '../../src/gateway/update/update-queue.js';
import type { Logger } from '../../src/lib/log.js';
import type { LiveRecord } from '../../src/zone/record.js';
import { batchWorld } from './update-batch.js';

export const CLIENT = '81.0.2.200';

export interface DoorWorld {
  deps: DoorDeps;
  zone: Awaited<ReturnType<typeof batchWorld>>['zone'];
  /** The secret of a key, as its password. */
  secret(key: string): string;
  /** The request answered, as the door answers it (a promise only when it must wait). */
  ask(query: string, client?: string): DoorAnswer | Promise<DoorAnswer>;
  /** The refusals logged, as `rcode what: why`. */
  refusals(): string[];
  debug: string[];
  /** The other lines logged, as `level: message`. */
  log: string[];
  /** The budget is spent from now on. */
  spend(): void;
}

export async function door(
  options: {
    records?: Omit<LiveRecord, 'entityID'>[];
    keysFile?: string;
    prefixHosts?: [string, string][];
    allowPrivateIp?: boolean;
    /** The call budget and each key's share of it (update-batch.ts). */
    budget?: number;
    shares?: boolean;
  } = {},
): Promise<DoorWorld> {
  const { records, keysFile, budget, shares } = options;
  const world = await batchWorld({ records, keysFile, budget, shares });
  const debug: string[] = [];
  const logger: Logger = { ...world.deps.logger, debug: (m) => void debug.push(m) };
  let spent = false;
  const refusals = new RefusalLog(logger, () => 0);
  const deps: DoorDeps = {
    ...world.deps,
    logger,
    updates: new UpdateQueue(world.deps),
    budgetSpent: () => spent,
    prefixHosts: new Map(options.prefixHosts ?? []),
    allowPrivateIp: options.allowPrivateIp ?? false,
    guesses: new GuessLimit(() => 0),
    counts: new Map(),
    refusals,
  };
  const secret = (key: string) => deps.keys().keys.get(key)!.secret.toString('base64');
  return {
    deps,
    zone: world.zone,
    secret,
    ask: (query, client = CLIENT) => answerRequest(readRequest(readParameters(query), undefined), client, deps),
    refusals: () => refusals.recent.map((r) => `${r.rcode} ${r.what}: ${r.why}`),
    debug,
    log: world.log,
    spend: () => {
      spent = true;
    },
  };
}

export const A = (name: string, value: string): Omit<LiveRecord, 'entityID'> => ({ name, type: 'A', ttl: 600, value });
/** The query of alice's request, with her password. */
export const as = (w: DoorWorld, query: string, key = 'alice') =>
  `${query}&username=${key}&password=${encodeURIComponent(w.secret(key))}`;
