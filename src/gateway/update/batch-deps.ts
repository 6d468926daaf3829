// What a batch of updates is given (the gateway's views, providers, keys, budget, DHCID store
// and quotas), what it takes (updates waiting for their answer) and what it answers.
import type { Logger } from '../../lib/log.js';
import type { Plan } from '../../zone/plan/plan.js';
import type { ZoneProvider } from '../../zone/provider/provider-zone.js';
import type { DhcidStore } from '../dhcid/store.js';
import type { ZoneViews } from '../dns/zone-views.js';
import type { GatewayKeys } from '../keys/keys-file.js';
import type { KeyCalls } from '../limits/key-calls.js';
import type { OwnersLedger } from '../limits/key-quotas.js';
import type { UpdateMessage } from './message.js';

export interface Outcome {
  rcode: number;
  ede: number;
  why: string;
  /** Set when the update's own writes were made (NOERROR for an update that changed nothing has it unset). */
  changed?: boolean;
}

/** NOERROR, with nothing to say. */
export const OK: Readonly<Outcome> = { rcode: 0, ede: 0, why: '' };

export interface BatchDeps {
  views: ZoneViews;
  providerOf: (zone: string) => ZoneProvider;
  keys: () => GatewayKeys;
  stateDir: string;
  hosts: string[];
  logger: Logger;
  /**
   * Sets aside the provider calls of a batch's writes, their undoing and the `rereads` that takes
   * (the gateway's budget); says why not when it cannot.
   */
  setAsideCalls?: (zone: string, plan: Plan, rereads?: number) => string | undefined;
  /**
   * Why `calls` more provider calls (for an update's writes and their undoing: `forUpdate`) do not
   * fit in the budget now; undefined when they do.
   */
  affordCalls?: (calls: number, forUpdate?: boolean) => string | undefined;
  /** Gives back what setAsideCalls set aside and the batch did not use. */
  releaseCalls?: (zone: string) => void;
  /** The DHCID records the gateway keeps (the provider cannot hold them). */
  dhcid: DhcidStore;
  /** Which key created which record, for the keys' quotas (none: no quotas). */
  owners?: OwnersLedger;
  /** Each key's share of the call budget (key-calls.ts; none: no shares). */
  keyCalls?: KeyCalls;
}

/** An update as its door queued it. */
export interface UpdateRequest {
  key: string;
  client: string;
  message: UpdateMessage;
}

/** An update waiting for its answer; answered once, however often `resolve` is called. */
export interface PendingUpdate extends UpdateRequest {
  resolve: (outcome: Outcome) => void;
}

/** Answers every update of `updates` alike. */
export const answerAll = (updates: readonly { resolve: (outcome: Outcome) => void }[], outcome: Outcome): void =>
  updates.forEach((p) => {
    p.resolve(outcome);
  });
