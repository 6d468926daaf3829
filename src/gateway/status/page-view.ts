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

/** Records shown per zone; the rest are counted (AXFR gives them all). */
const RECORDS_SHOWN = 300;
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
    records: { name: string; type: string; ttl: number; value: string }[];
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
      ? { ok: true, text: `Serving ${view.stats.zones.length} zone(s); every zone read from the provider recently.` }
      : { ok: false, text: outsideText(health.reasons.join('; ')) },
    zones: view.stats.zones.map((zone) => {
      const index = view.views.index(zone);
      const reading = view.stats.readings.get(zone) ?? {};
      const records = index ? [...index.nodes.values()].flat() : [];
      return {
        zone,
        serial: index?.soa.value.serial ?? null,
        size: index?.size ?? 0,
        lastGoodReadAt: reading.goodAt === undefined ? null : new Date(reading.goodAt).toISOString(),
        lastError: reading.error ? outsideText(reading.error, 300) : null,
        records: records
          .slice(0, RECORDS_SHOWN)
          .map((r) => ({ name: r.name, type: r.type, ttl: r.ttl, value: valueText(r) })),
        more: Math.max(0, records.length - RECORDS_SHOWN),
      };
    }),
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

function valueText(record: DnsRecord): string {
  const v = record.value as unknown;
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((s) => JSON.stringify(s)).join(' ');
  return Object.values(v as Record<string, unknown>).join(' ');
}

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
    const changes = line.changes.map(
      (c) => `${c.action} ${c.name} ${c.type}${c.before ? ` ${c.before}` : ''}${c.after ? ` -> ${c.after}` : ''}`,
    );
    return [{ time: line.time, zone: line.zone, key: line.key, client: line.client, changes: [...ended, ...changes] }];
  });
  return shown.slice(-UPDATES_SHOWN).reverse();
}
