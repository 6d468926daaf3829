// A gateway's batch of updates in-process: an in-memory zone (memory-zone.ts), the zone's view,
// a keys file of two keys (alice and bob, each granted A records anywhere in the zone), the
// DHCID store, the owners ledger and the journal in a fresh state directory, and a call budget
// counted on the calls the zone was asked. Updates are queued as a door queues them, and each
// answer given is kept (an update answered twice shows it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DhcidStore } from '../../src/gateway/dhcid/store.js';
import { ZoneViews } from '../../src/gateway/dns/zone-views.js';
import { journalPath } from '../../src/gateway/journal/journal.js';
import { keygenText } from '../../src/gateway/keys/keygen.js';
import { parseKeysFile } from '../../src/gateway/keys/keys-file.js';
import { KeyCalls } from '../../src/gateway/limits/key-calls.js';
import { OwnersLedger } from '../../src/gateway/limits/key-quotas.js';
import type { BatchDeps, Outcome, PendingUpdate } from '../../src/gateway/update/batch-deps.js';
import { CLASS, type UpdateMessage, type UpdateRecord } from '../../src/gateway/update/message.js';
import { TYPE_CODES } from '../../src/dns/wire/types.js';
import type { Logger } from '../../src/lib/log.js';
import { callCount, stepsOf } from '../../src/zone/plan/steps.js';
import type { LiveRecord } from '../../src/zone/record.js';
import { tempDir } from './cli.js';
import { MemoryZone } from './memory-zone.js';

export const ZONE = 'example.com';

/** An add of an A record (RFC 2136 2.5.1). */
export const addA = (name: string, address: string, ttl = 300): UpdateRecord => ({
  name,
  type: TYPE_CODES.A,
  class: CLASS.IN,
  ttl,
  data: { name, ttl, type: 'A', value: address },
});

/** A prerequisite that `name` holds no A RRset (RFC 2136 2.4.3). */
export const noA = (name: string): UpdateRecord => ({ name, type: TYPE_CODES.A, class: CLASS.NONE, ttl: 0 });

export const updateOf = (...updates: UpdateRecord[]): UpdateMessage => ({
  id: 1,
  zone: { name: ZONE, type: TYPE_CODES.SOA, class: CLASS.IN },
  prerequisites: updates.filter((u) => u.class === CLASS.NONE),
  updates: updates.filter((u) => u.class !== CLASS.NONE),
  edns: true,
});

/** An update waiting for its answer, with every answer it was given. */
export interface TrackedUpdate extends PendingUpdate {
  answers: Outcome[];
}

export const pendingUpdate = (key: string, message: UpdateMessage): TrackedUpdate => {
  const answers: Outcome[] = [];
  return { key, client: '192.0.2.9', message, answers, resolve: (outcome) => void answers.push(outcome) };
};

export interface BatchWorld {
  zone: MemoryZone;
  views: ZoneViews;
  deps: BatchDeps;
  stateDir: string;
  /** The lines logged, as `level: message`. */
  log: string[];
  /** The calls the budget still allows (counted on the calls the zone was asked). */
  callsLeft: () => number;
  /** The journal's result marks, in order: `OUTCOME` for each update of each batch. */
  journalResults: () => string[];
  /** IDs for the records a batch's updates create. */
  newId: () => string;
}

export interface WorldOptions {
  records?: Omit<LiveRecord, 'entityID'>[];
  /** Lines added to the keys file (quotas, say). */
  keysFile?: string;
  /** The calls an hour the budget allows (none: no budget). */
  budget?: number;
  /** Each key's share of the budget (key-calls.ts). */
  shares?: boolean;
}

const recordingLogger = (log: string[]): Logger => ({
  error: (m) => void log.push(`error: ${m}`),
  warn: (m) => void log.push(`warn: ${m}`),
  info: (m) => void log.push(`info: ${m}`),
  debug: () => undefined,
});

/** A zone read once into its view, and the deps of its batches. */
export async function batchWorld(options: WorldOptions = {}): Promise<BatchWorld> {
  const zone = new MemoryZone(options.records);
  const stateDir = join(tempDir('ddedge-batch-'), 'state');
  const log: string[] = [];
  const logger = recordingLogger(log);
  const grants = 'grant "alice" zonesub A;\ngrant "bob" zonesub A;\n';
  const keysText = `${keygenText('alice')}${keygenText('bob')}${grants}${options.keysFile ?? ''}`;
  const keys = parseKeysFile(keysText, 'keys.conf');
  const views = new ZoneViews([ZONE], () => zone, 'gw.example.net');
  await views.refresh(ZONE);
  const limit = options.budget ?? Number.POSITIVE_INFINITY;
  const callsLeft = () => limit - zone.calls.length;
  const spent = (calls: number) =>
    calls > callsLeft() ? `${calls} calls do not fit the ${callsLeft()} left` : undefined;
  const deps: BatchDeps = {
    views,
    providerOf: () => zone,
    keys: () => keys,
    stateDir,
    hosts: [],
    logger,
    dhcid: DhcidStore.open(stateDir),
    owners: OwnersLedger.open(stateDir, logger),
    ...(options.budget === undefined
      ? {}
      : {
          affordCalls: (calls: number) => spent(calls),
          setAsideCalls: (_zone: string, plan, rereads = 1) => spent(2 * callCount(stepsOf(plan.changes)) + rereads),
        }),
    ...(options.shares ? { keyCalls: new KeyCalls(options.budget ?? 1_000, () => keys) } : {}),
  } satisfies BatchDeps;
  let created = 0;
  const journalResults = () => {
    let text = '';
    try {
      text = readFileSync(journalPath(stateDir), 'utf8');
    } catch {
      return [];
    }
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { outcome?: string });
    return lines.flatMap((l) => (l.outcome ? [l.outcome] : []));
  };
  return { zone, views, deps, stateDir, log, callsLeft, journalResults, newId: () => `pending:${++created}` };
}
