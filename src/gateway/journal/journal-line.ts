// The journal's one line format: a JSON object per line, written and read only here. Its keys in
// the order they have always been written (time, zone, the batch's mark, key, client, changes),
// so the bytes on disk stay as every earlier gateway wrote them; readers never depend on that
// order. A line holds names, types and record values, never a secret.
import { list, object, oneOf, optional, text } from '../../state/shape.js';

/** A journal file is rotated past this many bytes (retention.ts). */
export const JOURNAL_FILE_BYTES = 4 * 1024 * 1024;
/** Rotated before a line of a bounded update is added: a larger file than twice that is not ours (not read). */
export const JOURNAL_READ_BYTES = 2 * JOURNAL_FILE_BYTES;

/** What became of a batch's writes, as the provider shows them (read again when an answer was lost). */
export type BatchOutcome = 'made' | 'not made' | 'partly made' | 'unknown';

/** The values the provider holds at one name and type, for a result line. */
export interface HeldAt {
  name: string;
  type: string;
  values: string[];
}

/** One change as a line holds it: values as `ttl [priority] value`. */
export interface JournalChange {
  action: string;
  name: string;
  type: string;
  before?: string;
  after?: string;
}

/**
 * Ties the lines of one batch of provider writes together (batch-journal.ts): its intent before
 * the first write, its result after the last (`reconciled` when a later start closed it).
 */
export type JournalMark =
  | { intent: string }
  | { result: string; outcome: BatchOutcome; reconciled?: 'at start'; holds?: HeldAt[] };

export interface JournalLine {
  time: string;
  zone: string;
  mark?: JournalMark;
  key: string;
  client: string;
  changes: JournalChange[];
}

/** The line's text, newline included. */
export function formatJournalLine(line: JournalLine): string {
  const { mark } = line;
  // Field by field, in the order written since the first journal (undefined fields are left out).
  const marked =
    mark === undefined
      ? {}
      : 'intent' in mark
        ? { intent: mark.intent }
        : { result: mark.result, outcome: mark.outcome, reconciled: mark.reconciled, holds: mark.holds };
  const { time, zone, key, client, changes } = line;
  return `${JSON.stringify({ time, zone, ...marked, key, client, changes })}\n`;
}

const OUTCOMES: BatchOutcome[] = ['made', 'not made', 'partly made', 'unknown'];
const lineShape = object({
  time: text,
  zone: text,
  intent: optional(text),
  result: optional(text),
  outcome: optional(oneOf(...OUTCOMES)),
  reconciled: optional(oneOf('at start')),
  holds: optional(list(object({ name: text, type: text, values: list(text) }))),
  key: text,
  client: text,
  changes: list(object({ action: text, name: text, type: text, before: optional(text), after: optional(text) })),
});

/** A line of the journal, checked field by field; undefined for one that is not (a line cut by a crash). */
export function parseJournalLine(line: string): JournalLine | undefined {
  let body: ReturnType<typeof lineShape>;
  try {
    body = lineShape(JSON.parse(line), '');
  } catch {
    return undefined;
  }
  if (body.intent !== undefined && body.result !== undefined) return undefined;
  if (body.result !== undefined && body.outcome === undefined) return undefined;
  const { time, zone, key, client, changes, intent, result, outcome, reconciled, holds } = body;
  const mark: JournalMark | undefined =
    intent !== undefined
      ? { intent }
      : result !== undefined
        ? { result, outcome: outcome!, ...(reconciled ? { reconciled } : {}), ...(holds ? { holds } : {}) }
        : undefined;
  return { time, zone, ...(mark ? { mark } : {}), key, client, changes };
}

/**
 * A line's batch mark, found without parsing the line (a full journal is read at every start):
 * the key may stand anywhere in the object, and only a key can match, since a quote inside a
 * JSON string is always escaped. Confirm with parseJournalLine before acting on a line.
 */
export function markOf(line: string): { kind: 'intent' | 'result'; batch: string } | undefined {
  const found = /"(intent|result)":"([0-9a-f]+)"/.exec(line);
  return found ? { kind: found[1] as 'intent' | 'result', batch: found[2]! } : undefined;
}

/** Whether the line was written on `day` (YYYY-MM-DD), found without parsing it (as markOf). */
export const writtenOn = (line: string, day: string): boolean => line.includes(`"time":"${day}`);
