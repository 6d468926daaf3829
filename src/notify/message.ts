// What a notification says, whatever carries it: one event, a title and a short text. The
// text comes from the history's notices, already redacted and escaped; it is bounded again
// here, since some services refuse long messages (Discord at 2,000 characters, Telegram at 4,096).
import { outsideText } from '../lib/outside-text.js';

/** The events a notification URL may choose among (`?events=failing,recovered`); `test` always goes. */
export const CHOSEN_EVENTS = [
  'changed',
  'failing',
  'recovered',
  'rejected',
  'budget',
  'refused',
  'zone-changed',
  'persist-expiring',
  'container-name-added',
  'container-name-removed',
] as const;
type NotifyEventName = (typeof CHOSEN_EVENTS)[number] | 'test';

export interface NotifyEvent {
  event: NotifyEventName;
  time: string;
  host?: string;
  type?: 'A' | 'AAAA' | 'CNAME';
  old?: string;
  new?: string;
  /** The gateway's refusals: the TSIG (or dyndns2) key refused, when its signature verified. */
  key?: string;
  message: string;
}

/** The longest text sent; every service documented here takes at least this much. */
const MESSAGE_CHARS = 1000;

const TITLES: Record<NotifyEventName, string> = {
  changed: 'address changed',
  failing: 'update failing',
  recovered: 'update working again',
  rejected: 'credentials rejected',
  budget: 'call budget spent',
  refused: 'updates refused',
  'zone-changed': 'zone changed elsewhere',
  'persist-expiring': 'DNS-PERSIST-01 record expiring',
  'container-name-added': 'name given by a container',
  'container-name-removed': 'name let go after its container stopped',
  test: 'test message',
};

export function titleOf(event: NotifyEvent): string {
  return `ddedge: ${TITLES[event.event]}${event.host ? ` (${event.host} ${event.type ?? ''})`.replace(' )', ')') : ''}`;
}

export const textOf = (event: NotifyEvent): string => outsideText(event.message, MESSAGE_CHARS);

/** The JSON document of the generic webhook: the contract's fields, nothing else. */
export function eventDocument(event: NotifyEvent): Record<string, string | null> {
  const document: Record<string, string | null> = {
    event: event.event,
    time: event.time,
    host: event.host ?? null,
    type: event.type ?? null,
    old: event.old ?? null,
    new: event.new ?? null,
    message: textOf(event),
  };
  // A refusal with no verified key (the digest of refusals by source) says so with null.
  if (event.key !== undefined || event.event === 'refused') document.key = event.key ?? null;
  return document;
}

/**
 * Same event, same notification: what deduplication compares. A test message and a refusal burst (already bounded
 * where it is made, at most one per key or digest an hour) are each a report of their own, told apart by their time.
 */
export const eventKey = (event: NotifyEvent): string =>
  JSON.stringify([
    event.event,
    event.host,
    event.type,
    event.old,
    event.new,
    event.key,
    event.event === 'test' || event.event === 'refused' ? event.time : '',
  ]);
