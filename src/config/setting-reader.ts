// The agent's settings table (SETTINGS) read by name with the shared readers (readers.ts): each
// row's values are had once (a secret's file may be a pipe, `--dyndns-key-file <(pass …)`, and a
// problem is said once), a row without a value reads its default, and every problem goes to one
// list, said together when loading ends.
import type { RawValue } from './env-sources.js';
import { rawValues, type ValueSources } from './raw-values.js';
import {
  readBoolean,
  readChoice,
  readCount,
  readDuration,
  readUrl,
  valueNoting,
  listValues,
  type Bounds,
  type Reading,
} from './readers.js';
import { SETTINGS, type Fail, type Setting, type SettingName } from './settings.js';

export interface SettingReader {
  problems: string[];
  /** Every value given (a repeatable flag's, in order). */
  raw(name: SettingName): RawValue[];
  /** The value that counts: the last given. */
  one(name: SettingName): RawValue | undefined;
  /** The value that counts, or the row's default. */
  text(name: SettingName): string | undefined;
  fail: Fail;
  url(name: SettingName): string;
  choice<T extends string>(name: SettingName): T;
  duration(name: SettingName, bounds: Bounds): number;
  count(name: SettingName, bounds: Bounds): number;
  boolean(name: SettingName): boolean;
  list(name: SettingName): string[];
}

const describeSetting = (s: Setting): string => (s.env ? `${s.env} (--${s.flag})` : `--${s.flag}`);

/** The readers below are for rows that have a value: a default, or one checked by the caller. */
export function settingReader(sources: ValueSources, problems: string[]): SettingReader {
  const read = new Map<SettingName, RawValue[]>();
  const raw = (name: SettingName): RawValue[] => {
    if (!read.has(name)) read.set(name, rawValues(SETTINGS[name], sources, problems));
    return read.get(name)!;
  };
  const one = (name: SettingName): RawValue | undefined => raw(name).at(-1);
  const text = (name: SettingName): string | undefined => one(name)?.value ?? (SETTINGS[name] as Setting).default;
  const origin = (name: SettingName): string => one(name)?.origin ?? describeSetting(SETTINGS[name]);
  const take = <T>(reading: Reading<T>): T => valueNoting(reading, problems);
  return {
    problems,
    raw,
    one,
    text,
    fail: (name, given, message) => problems.push(`${given ?? describeSetting(SETTINGS[name])}: ${message}`),
    url: (name) => take(readUrl(text(name)!, one(name)?.origin ?? `--${SETTINGS[name].flag}`)),
    choice: <T extends string>(name: SettingName) =>
      take(readChoice(text(name)!, (SETTINGS[name] as Setting).values as readonly T[], origin(name))),
    duration: (name, bounds) => take(readDuration(text(name)!, bounds, origin(name))),
    count: (name, bounds) => take(readCount(text(name)!, bounds, origin(name))),
    boolean: (name) => take(readBoolean(text(name) ?? 'false', origin(name))),
    list: (name) => listValues(raw(name)),
  };
}
