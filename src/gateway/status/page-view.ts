// What the status page shows of the gateway, from its memory and its journal at request time:
// each served zone with its records as the gateway serves them, the keys by name with what each
// may change (never a secret), the recent updates (the journal's last lines) and refusals, and
// the call budget. Names and values only, which anyone may query anyway.
import type { DnsRecord } from '../../dns/wire/types.js';
import { outsideText } from '../../lib/outside-text.js';
import { journalPath } from '../journal/journal.js';
import { readJournalTail } from '../journal/journal-reader.js';
import type { GatewayKeys } from '../keys/keys-file.js';
import { gatewayHealth, type GatewayView } from './operations.js';
import type { Refusal } from '../limits/refusal-log.js';
import type { SecondaryRow } from '../dns/secondaries.js';
import { counted } from '../../lib/counted.js';
import { changeText } from './change-text.js';

/** Records shown per zone; the rest are counted (AXFR gives them all). */
const RECORDS_SHOWN = 300;
/**
 * The page is bounded in bytes, not only in records: a value is shown up to VALUE_CHARS characters (a TXT may hold
 * 60,000 bytes; the rest is counted), and the records of every zone together up to RECORD_BYTES of values.
 */
const VALUE_CHARS = 200;
const RECORD_BYTES = 128 * 1024;
/** An update's change line (a TXT's before and after) up to this many characters. */
const CHANGE_CHARS = 300;
const UPDATES_SHOWN = 20;
/** The journal's tail read for them: its lines are short, and the file may be megabytes. */
const TAIL_BYTES = 64 * 1024;

export interface GatewayPageSources {
  view: GatewayView;
  keys: () => GatewayKeys;
  refusals: Refusal[];
  secondaries?: SecondaryRow[];
  stateDir: string;
}

export interface GatewayPageView {
  now: string;
  overall: { ok: boolean; text: string };
  zones: {
    zone: string;
    serial: number | null;
    size: number;
    lastGoodReadAt: string | null;
    lastError: string | null;
    /** `cut`: the value's bytes left out (shown up to VALUE_CHARS characters). */
    records: { name: string; type: string; ttl: number; value: string; cut: number }[];
    more: number;
  }[];
  keys: { name: string; rights: string[]; transfer: boolean }[];
  updates: { time: string; zone: string; key: string; client: string; changes: string[] }[];
  refusals: Refusal[];
  /** NOTIFYs sent and transfers made, by secondary and zone. */
  secondaries?: SecondaryRow[];
  budget: { used: number; limit: number };
}

export function gatewayPageView(sources: GatewayPageSources, now = new Date()): GatewayPageView {
  const { view } = sources;
  const health = gatewayHealth(view);
  const keys = sources.keys();
  const left = view.budget.left();
  return {
    now: now.toISOString(),
    overall: health.healthy
      ? {
          ok: true,
          text:
            `Serving ${counted(view.stats.zones.length, 'zone')}; ` +
            `${view.stats.zones.length === 1 ? 'it was' : 'every zone'} read from the provider recently.`,
        }
      : { ok: false, text: outsideText(health.reasons.join('; ')) },
    zones: zonesOf(view),
    keys: [...keys.keys.keys()].sort().map((name) => ({
      name,
      rights: keys.grants
        .filter((g) => g.key === name)
        .map(
          (g) =>
            `${g.rule}${g.name ? ` ${g.rule === 'wildcard' ? `*.${g.name}` : g.name}` : ''}: ` +
            `${g.types.length ? g.types.join(', ') : 'every type'}`,
        ),
      transfer: keys.transfer.has(name),
    })),
    updates: journalTail(sources.stateDir),
    refusals: [...sources.refusals].reverse(),
    secondaries: [...(sources.secondaries ?? [])].reverse(),
    budget: { used: Math.max(0, view.budget.limit - left), limit: view.budget.limit },
  };
}

/** Each zone with the records shown of it: the page's one byte budget of values is shared by them all. */
function zonesOf(view: GatewayView): GatewayPageView['zones'] {
  const budget = { left: RECORD_BYTES };
  return view.stats.zones.map((zone) => {
    const index = view.views.index(zone);
    const reading = view.stats.readings.get(zone) ?? {};
    const records = index ? shownRecords(index.nodes.values(), budget) : [];
    return {
      zone,
      serial: index?.soa.value.serial ?? null,
      size: index?.size ?? 0,
      lastGoodReadAt: reading.goodAt === undefined ? null : new Date(reading.goodAt).toISOString(),
      lastError: reading.error ? outsideText(reading.error, 300) : null,
      records,
      more: Math.max(0, recordCount(index?.nodes.values() ?? []) - records.length),
    };
  });
}

/** The first records of a zone, each value cut to VALUE_CHARS, until RECORDS_SHOWN or the byte budget is spent. */
function shownRecords(
  nodes: Iterable<DnsRecord[]>,
  budget: { left: number },
): GatewayPageView['zones'][number]['records'] {
  const shown: GatewayPageView['zones'][number]['records'] = [];
  // Walked, not copied: a zone of 50,000 records is not listed whole to show 300 of them.
  for (const node of nodes) {
    for (const r of node) {
      if (shown.length >= RECORDS_SHOWN || budget.left <= 0) return shown;
      const { text, cut } = shownValue(r, VALUE_CHARS);
      budget.left -= Buffer.byteLength(text) + r.name.length;
      shown.push({ name: r.name, type: r.type, ttl: r.ttl, value: text, cut });
    }
  }
  return shown;
}

function recordCount(nodes: Iterable<DnsRecord[]>): number {
  let count = 0;
  for (const node of nodes) count += node.length;
  return count;
}

/** `text` up to `chars` characters (never splitting a surrogate pair), and how many of its bytes were left out. */
function cutText(text: string, chars: number): { text: string; cut: number } {
  if (text.length <= chars) return { text, cut: 0 };
  const end = /[\ud800-\udbff]/.test(text.charAt(chars - 1)) ? chars - 1 : chars;
  const shown = text.slice(0, end);
  return { text: shown, cut: Buffer.byteLength(text) - Buffer.byteLength(shown) };
}

/**
 * A record's value as the page shows it (TXT as its quoted strings), cut to `chars`: a value of 60,000 bytes is never
 * joined whole to show 200 characters of it, only its size is counted.
 */
function shownValue(record: DnsRecord, chars: number): { text: string; cut: number } {
  const v = record.value as unknown;
  if (typeof v === 'string') return cutText(v, chars);
  if (!Array.isArray(v)) return cutText(Object.values(v as Record<string, unknown>).join(' '), chars);
  const strings = v as string[];
  const known = SHOWN_STRINGS.get(strings);
  if (known?.chars === chars) return known.shown;
  let text = '';
  let bytes = strings.length - 1;
  for (const s of strings) {
    if (text.length <= chars) text += `${text ? ' ' : ''}${JSON.stringify(s)}`;
    // Its size as shown: the two quotes, and the escapes only a string that needs one has.
    bytes += NEEDS_ESCAPE.test(s) ? Buffer.byteLength(JSON.stringify(s)) : Buffer.byteLength(s) + 2;
  }
  const cut = cutText(text, chars).text;
  const shown = { text: cut, cut: bytes - Buffer.byteLength(cut) };
  SHOWN_STRINGS.set(strings, { chars, shown });
  return shown;
}

/**
 * A TXT's strings as last shown, by the list itself (a reading or an update makes a new list): the next page load
 * does not count a long value's bytes again.
 */
const SHOWN_STRINGS = new WeakMap<string[], { chars: number; shown: { text: string; cut: number } }>();

const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

/** The journal's last updates, newest first; a missing or unreadable journal is none. */
function journalTail(stateDir: string): GatewayPageView['updates'] {
  // Without waiting: a FIFO in its place would otherwise hold the page (and the event loop) forever.
  const lines = readJournalTail(journalPath(stateDir), TAIL_BYTES);
  // An intent line is followed by its result line (batch-journal.ts): the page shows the result,
  // and says how it ended when the writes were not all made.
  const shown = lines.flatMap((line) => {
    if (line.mark && 'intent' in line.mark) return [];
    const outcome = line.mark?.outcome;
    const ended = outcome && outcome !== 'made' ? [`(${outcome})`] : [];
    const changes = line.changes.map((c) => {
      const { text, cut } = cutText(changeText(c), CHANGE_CHARS);
      return cut ? `${text}… (${cut} more bytes)` : text;
    });
    return [{ time: line.time, zone: line.zone, key: line.key, client: line.client, changes: [...ended, ...changes] }];
  });
  return shown.slice(-UPDATES_SHOWN).reverse();
}
