// One change of the journal as a reader of the page says it: the journal keeps each side as
// `TTL [PRIORITY] VALUE` (journal.ts, `-` for the provider's default TTL), which read as
// `TXT -> 60 token`; the page says the value first and the TTL after it, in words.
import type { JournalChange } from '../journal/journal-line.js';

interface Side {
  ttl: string;
  value: string;
}

function sideOf(described: string): Side {
  const space = described.indexOf(' ');
  if (space < 0) return { ttl: '-', value: described };
  return { ttl: described.slice(0, space), value: described.slice(space + 1) };
}

function ttlText(before: Side | undefined, after: Side | undefined): string {
  const said = (s: Side) => (s.ttl === '-' ? "the provider's default" : s.ttl);
  if (before && after && before.ttl !== after.ttl) return ` (TTL ${said(before)} → ${said(after)})`;
  const side = after ?? before;
  return side && side.ttl !== '-' ? ` (TTL ${side.ttl})` : '';
}

/** `create www A 192.0.2.1 (TTL 60)`, `update www A 192.0.2.1 → 192.0.2.2`, `delete www TXT "token"`. */
export function changeText(change: JournalChange): string {
  const before = change.before === undefined ? undefined : sideOf(change.before);
  const after = change.after === undefined ? undefined : sideOf(change.after);
  const values =
    before && after && before.value !== after.value ? `${before.value} → ${after.value}` : (after ?? before)?.value;
  return `${change.action} ${change.name} ${change.type}${values ? ` ${values}` : ''}${ttlText(before, after)}`;
}
