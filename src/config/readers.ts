// The readers of a setting's text, shared by the agent's settings (load.ts) and the gateway's
// (gateway-settings.ts): a URL, a choice, a duration, a count, a boolean, a list. Each gives its
// reading and, when the text is wrong, the problem as the user will see it, named by the origin
// given (--flag, VARIABLE, VARIABLE_FILE, credential). A reading is returned even when wrong, so
// the checks that follow see the same value whichever setting was read.
import { checkUrl } from '../http/url-policy.js';
import { formatDuration, parseDuration, unitOf } from '../lib/duration.js';
import type { RawValue } from './env-sources.js';

export interface Reading<T> {
  value: T;
  /** What is wrong, prefixed with the origin; undefined when the text is right. */
  problem?: string;
}

/** An inclusive range; without `max`, a floor only. */
export interface Bounds {
  min: number;
  max?: number;
}

/** A reading's value; its problem, if any, added to the problems said together when loading ends. */
export function valueNoting<T>({ value, problem }: Reading<T>, problems: string[]): T {
  if (problem !== undefined) problems.push(problem);
  return value;
}

const BOOLEAN_TRUE = new Set(['1', 'true', 'yes', 'on']);
const BOOLEAN_FALSE = new Set(['0', 'false', 'no', 'off']);

/** https:// anywhere, http:// to loopback only (http/url-policy.ts); the URL as written out. */
export function readUrl(text: string, origin: string): Reading<string> {
  try {
    return { value: checkUrl(text, origin).toString() };
  } catch (error) {
    return { value: text, problem: (error as Error).message };
  }
}

/** One of `values`, exactly as written (case counts). */
export function readChoice<T extends string>(text: string, values: readonly T[], origin: string): Reading<T> {
  if ((values as readonly string[]).includes(text)) return { value: text as T };
  return { value: text as T, problem: `${origin}: "${text}" is not one of ${values.join(', ')}` };
}

/** 1/0, true/false, yes/no, on/off in any case; anything else is a problem (and false). */
export function readBoolean(text: string, origin: string): Reading<boolean> {
  const word = text.toLowerCase();
  if (BOOLEAN_TRUE.has(word)) return { value: true };
  if (BOOLEAN_FALSE.has(word)) return { value: false };
  return { value: false, problem: `${origin}: "${word}" is not a boolean; use 1/0, true/false, yes/no or on/off` };
}

/**
 * A duration (lib/duration.ts: 15s, 5m, 1h30m, 7d, a bare number of seconds) in ms. Within a
 * range the problem names the bound crossed, in the unit the user wrote; a floor alone is said
 * in one phrase ("a duration of 1s or more"), whatever is wrong.
 */
export function readDuration(text: string, bounds: Bounds, origin: string): Reading<number> {
  const ms = parseDuration(text);
  if (bounds.max === undefined) {
    if (ms !== undefined && ms >= bounds.min) return { value: ms };
    return {
      value: ms ?? 0,
      problem: `${origin}: "${text}" is not a duration of ${formatDuration(bounds.min)} or more`,
    };
  }
  if (ms === undefined) {
    return {
      value: 0,
      problem: `${origin}: "${text}" is not a duration; use a number with ms, s, m, h or d (e.g. 15s, 5m, 1h30m, 7d)`,
    };
  }
  const unit = unitOf(text);
  if (ms < bounds.min)
    return { value: ms, problem: `${origin}: ${text} is under the minimum of ${formatDuration(bounds.min, unit)}` };
  if (ms > bounds.max)
    return { value: ms, problem: `${origin}: ${text} is over the maximum of ${formatDuration(bounds.max, unit)}` };
  return { value: ms };
}

/** A whole number in decimal digits only (no sign, no point, no blanks), within `bounds`. */
export function readCount(text: string, bounds: Bounds, origin: string): Reading<number> {
  const value = Number(text);
  const inRange = /^\d+$/.test(text) && value >= bounds.min && (bounds.max === undefined || value <= bounds.max);
  if (inRange) return { value };
  const range = bounds.max === undefined ? `of at least ${bounds.min}` : `from ${bounds.min} to ${bounds.max}`;
  return { value, problem: `${origin}: "${text}" is not a whole number ${range}` };
}

/** One item of a list setting, with where it came from. */
export interface ListItem {
  value: string;
  origin: string;
  /** The item's line (1-based), when its value has more than one line (a file of one item a line). */
  line?: number;
}

/**
 * The one grammar of every list setting (DDEDGE_HOSTS, --zone, --notify, a *_FILE of them, …),
 * the union of what each of them accepted before they shared it, so that no configuration that
 * worked stops working:
 * - items are separated by commas and by line breaks (a file may hold one item a line);
 * - blanks around an item are dropped, and so are empty items (`a,,b`, a trailing comma, blank
 *   lines);
 * - a line whose first character other than a blank is `#` is a comment, up to its end;
 * - an item that begins with `#` is a comment too (`a.example,#b.example`).
 * A `#` inside an item is part of it (`url:https://host/#frag`). Where two of the old readings
 * disagreed, a `#` line with a comma in it, the line is a comment to its end, as notification
 * files always read it: the text after the comma is no item.
 */
export function readList(entries: readonly RawValue[]): ListItem[] {
  return entries.flatMap((entry) => {
    const lines = entry.value.split('\n');
    return lines.flatMap((line, index) => {
      if (line.trim().startsWith('#')) return [];
      const items = line
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item && !item.startsWith('#'));
      const at = lines.length > 1 ? { line: index + 1 } : {};
      return items.map((value) => ({ value, origin: entry.origin, ...at }));
    });
  });
}

/** The items' text alone. */
export const listValues = (entries: readonly RawValue[]): string[] => readList(entries).map((item) => item.value);
