// flags + environment + dotenv + *_FILE + credentials -> one validated Config. Every
// problem is collected and reported together, naming the setting and what it accepts,
// before any request is sent (exit 2).
import { join } from 'node:path';
import type { DyndnsFormat } from '../dyndns/result.js';
import { ConfigError } from '../lib/errors.js';
import { formatDuration, parseDuration, unitOf } from '../lib/duration.js';
import { checkUrl } from '../http/url-policy.js';
import { canonicalAddress, familyOfAddress, type Family } from '../lib/address.js';
import { isHostName } from '../lib/names.js';
import { checkQuorumServers } from '../ip/source-identity.js';
import { parseSources } from '../ip/sources.js';
import { outsideText } from '../lib/outside-text.js';
import { registerSecret, registerSecretUrl } from '../lib/redact.js';
import { hasApiCredentials, hasDyndnsCredentials, type Config } from './config.js';
import { bothNames, missingHalf, secretUnread } from './credential-names.js';
import { splitDyndnsUrl } from './dyndns-base.js';
import { credentialPath, readSecretFile, readSecretSource, type Env, type RawValue } from './env-sources.js';
import { checkLanRequirements, lanSettings, listenAddress, parseHostItem } from './lan-settings.js';
import { fileFlagOf, SETTINGS, type Fail, type Setting, type SettingName } from './settings.js';
import { parseNotifyTarget } from '../notify/target.js';

export type FlagValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface LoadOptions {
  flags: FlagValues;
  env: Env;
  /** update and daemon need hosts and credentials; ip, status, health do not. */
  purpose: 'cycle' | 'detect' | 'state' | 'notify' | 'gateway';
  isRoot?: boolean;
  /** A command's own settings, read in the same pass: their problems are reported with the others. */
  readMore?: (pass: SettingsPass) => void;
}

/** What a command's own settings are read with: the values of its rows, and where to say what is wrong. */
export interface SettingsPass {
  config: Config;
  env: Env;
  raw: (setting: Setting) => RawValue[];
  problems: string[];
}

const BOOLEAN_TRUE = new Set(['1', 'true', 'yes', 'on']);
const BOOLEAN_FALSE = new Set(['0', 'false', 'no', 'off']);
const MAX_TIMEOUT_MS = 5 * 60_000;
const MIN_INTERVAL_MS = 30_000;
/** One call a second, all hour: more than any agent needs, and the state's count stays small. */
export const MAX_CALLS_PER_HOUR = 3600;
/** The longest problem shown: far above any message of ours, well below a value someone pasted a file into. */
const PROBLEM_LIMIT = 1000;
/** Unhealthy once three cycles in a row have not succeeded (or not run). */
const HEALTH_INTERVALS = 3;
/** What ddclient and most providers accept for a host's record: a minute to a week. */
const MIN_TTL = 60;
const MAX_TTL = 604_800;

export function loadConfig(options: LoadOptions): Config {
  const problems: string[] = [];
  // Each setting is read once: a secret's file may be a pipe (`--dyndns-key-file <(pass …)`),
  // and a problem is reported once.
  const read = new Map<SettingName, RawValue[]>();
  const raw = (name: SettingName): RawValue[] => {
    if (!read.has(name)) read.set(name, rawValues(SETTINGS[name], options, problems));
    return read.get(name)!;
  };
  const one = (name: SettingName): RawValue | undefined => raw(name).at(-1);
  const textOf = (name: SettingName): string | undefined => one(name)?.value ?? (SETTINGS[name] as Setting).default;
  const fail: Fail = (name, origin, message) => {
    problems.push(`${origin ?? describeSetting(SETTINGS[name])}: ${message}`);
  };

  /** For a setting that has a value (a default, or checked by the caller). */
  const url = (name: SettingName): string => {
    const value = textOf(name)!;
    try {
      return checkUrl(value, one(name)?.origin ?? `--${SETTINGS[name].flag}`).toString();
    } catch (error) {
      problems.push((error as Error).message);
      return value;
    }
  };
  const choice = <T extends string>(name: SettingName): T => {
    const setting = SETTINGS[name] as Setting;
    const value = textOf(name)!;
    if (!setting.values!.includes(value)) fail(name, one(name)?.origin, `"${value}" is not one of ${setting.values!.join(', ')}`);
    return value as T;
  };
  const duration = (name: SettingName, min: number, max: number): number => {
    const value = textOf(name)!;
    const ms = parseDuration(value);
    if (ms === undefined) fail(name, one(name)?.origin, `"${value}" is not a duration; use a number with ms, s, m, h or d (e.g. 15s, 5m, 1h30m, 7d)`);
    else if (ms < min) fail(name, one(name)?.origin, `${value} is under the minimum of ${formatDuration(min, unitOf(value))}`);
    else if (ms > max) fail(name, one(name)?.origin, `${value} is over the maximum of ${formatDuration(max, unitOf(value))}`);
    return ms ?? 0;
  };
  const wholeNumber = (name: SettingName, min: number, max: number): number => {
    const value = textOf(name)!;
    const number = Number(value);
    if (!/^\d+$/.test(value) || number < min || number > max) fail(name, one(name)?.origin, `"${value}" is not a whole number from ${min} to ${max}`);
    return number;
  };
  const boolean = (name: SettingName): boolean => {
    const entry = one(name);
    const value = (entry?.value ?? (SETTINGS[name] as Setting).default ?? 'false').toLowerCase();
    if (BOOLEAN_TRUE.has(value)) return true;
    if (!BOOLEAN_FALSE.has(value)) fail(name, entry?.origin, `"${value}" is not a boolean; use 1/0, true/false, yes/no or on/off`);
    return false;
  };
  const address = (name: 'ip' | 'ip6', family: Family): string | undefined => {
    const entry = one(name);
    if (!entry) return undefined;
    const valid = familyOfAddress(entry.value) === family;
    if (!valid) fail(name, entry.origin, `"${entry.value}" is not an IPv${family} address`);
    return valid ? canonicalAddress(entry.value) : undefined;
  };
  const sources = (name: 'ipSources' | 'ip6Sources', family: Family) => {
    const entries = raw(name);
    try {
      return parseSources(entries.flatMap((e) => splitList(e.value)), family, entries[0]?.origin ?? `--${SETTINGS[name].flag}`);
    } catch (error) {
      problems.push((error as Error).message);
      return [];
    }
  };
  const secret = (name: 'dyndnsKey' | 'apiPassword' | 'pingUrl' | 'listenToken'): string | undefined => {
    const value = one(name)?.value;
    if (name === 'pingUrl') registerSecretUrl(value);
    else registerSecret(value);
    return value;
  };

  const hosts: string[] = [];
  const lan = lanSettings(raw, fail);
  for (const entry of raw('hosts')) {
    for (const item of splitList(entry.value)) {
      const { host, identifier } = parseHostItem(item);
      if (!isHostName(host)) fail('hosts', entry.origin, `${JSON.stringify(host)} is not a fully qualified host name${listHint(host, entry.origin)}`);
      else if (!hosts.includes(host)) {
        hosts.push(host);
        if (identifier !== undefined) lan.define(host, identifier, entry.origin);
      } else if (lan.identifiers[host] !== (identifier === undefined ? undefined : lan.canonical(identifier))) {
        // Repeating a host is harmless; one name with two meanings is not.
        const how = identifier === undefined || lan.identifiers[host] === undefined ? 'with and without an interface identifier' : 'with two interface identifiers';
        fail('hosts', entry.origin, `"${host}" is given twice, ${how}; one name, one host`);
      }
    }
  }
  const serviceEntry = one('service');
  if (serviceEntry && !isHostName(serviceEntry.value.toLowerCase())) fail('service', serviceEntry.origin, `"${serviceEntry.value}" is not a domain name`);

  const ipSources = sources('ipSources', 4);
  const ip6Sources = sources('ip6Sources', 6);
  const quorumEntry = one('quorum');
  let quorum = ipSources.length === 1 ? 1 : 2;
  if (quorumEntry) {
    quorum = Number(quorumEntry.value);
    if (!/^\d+$/.test(quorumEntry.value) || quorum < 1) fail('quorum', quorumEntry.origin, `"${quorumEntry.value}" is not a whole number of at least 1`);
    else if (ipSources.length && quorum > ipSources.length) fail('quorum', quorumEntry.origin, `${quorum} is more than the ${ipSources.length} IPv4 sources configured`);
  }
  const quorum6 = Math.max(1, Math.min(quorum, ip6Sources.length));
  // One server named twice must not make a quorum: it is one witness, not two.
  for (const [specs, needed, name] of [[ipSources, quorum, 'ipSources'], [ip6Sources, quorum6, 'ip6Sources']] as const) {
    try {
      checkQuorumServers(specs, needed, raw(name)[0]?.origin ?? `--${SETTINGS[name].flag}`);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }

  const intervalMs = duration('interval', MIN_INTERVAL_MS, 7 * 86_400_000);
  const dyndns = dyndnsEndpoint(url('dyndnsUrl'), one('dyndnsFormat'), choice('dyndnsFormat'), one('dyndnsUrl')?.origin ?? '--dyndns-url', problems);
  const config: Config = {
    dyndns: {
      ...dyndns,
      user: textOf('dyndnsUser'),
      key: secret('dyndnsKey'),
      keyParam: choice('dyndnsKeyParam'),
    },
    api: { url: url('apiUrl'), user: textOf('apiUser'), password: secret('apiPassword') },
    hosts,
    service: serviceEntry?.value.toLowerCase(),
    via: choice('via'),
    ip: address('ip', 4),
    ipSources,
    quorum,
    ipv6: boolean('ipv6'),
    ip6: address('ip6', 6),
    ip6Sources,
    quorum6,
    lan: { identifiers: lan.identifiers, prefixLength: lan.prefixLength, noIpv4For: lan.noIpv4For },
    listen: listenAddress(one('listen'), problems),
    listenToken: secret('listenToken'),
    stateDir: textOf('stateDir') ?? defaultStateDir(options.env, options.isRoot ?? process.getuid?.() === 0),
    // Only a cycle re-sends: `DDEDGE_MAX_AGE=1s ddedge health` is no error of health's.
    maxAgeMs: options.purpose === 'cycle' ? duration('maxAge', 60_000, 366 * 86_400_000) : (parseDuration(textOf('maxAge')!) ?? 0),
    timeoutMs: duration('timeout', 100, MAX_TIMEOUT_MS),
    intervalMs,
    healthLimitMs: one('healthyWithin') ? duration('healthyWithin', 1000, 366 * 86_400_000) : HEALTH_INTERVALS * intervalMs,
    ttl: one('ttl') ? wholeNumber('ttl', MIN_TTL, MAX_TTL) : undefined,
    allowPrivateIp: boolean('allowPrivateIp'),
    maxCallsPerHour: wholeNumber('maxCallsPerHour', 1, MAX_CALLS_PER_HOUR),
    logLevel: choice('logLevel'),
    logFormat: choice('logFormat'),
    edge: {
      onChange: textOf('onChange'),
      onChangeTimeoutMs: duration('onChangeTimeout', 100, 10 * 60_000),
      // A ping URL carries the check's identity: anyone who has it can report for it.
      pingUrl: secret('pingUrl') === undefined ? undefined : url('pingUrl'),
      metricsFile: textOf('metricsFile'),
    },
    // The gateway's --notify also names its secondaries (HOST[:PORT]): it takes only the URLs here.
    notify: options.purpose === 'cycle' || options.purpose === 'notify' ? notifyUrls(raw('notify'), problems) : options.purpose === 'gateway' ? notifyUrls(raw('notify'), problems, isNotifyUrl) : [],
    origins: { dyndnsUser: one('dyndnsUser')?.origin, dyndnsKey: one('dyndnsKey')?.origin, apiUser: one('apiUser')?.origin, apiPassword: one('apiPassword')?.origin },
    acme: { dnsServers: raw('dnsServers').flatMap((e) => splitList(e.value)), propagationTimeoutMs: duration('propagationTimeout', 1000, 60 * 60_000) },
  };
  // A token someone can guess is no protection for a page reachable from the network.
  if (config.listenToken !== undefined && config.listenToken.length < 16) fail('listenToken', one('listenToken')?.origin, 'has fewer than 16 characters; make one with: openssl rand -hex 16');
  if (options.purpose === 'cycle') checkCycleRequirements(config, problems, options.env, one('ttl')?.origin);
  options.readMore?.({ config, env: options.env, raw: (setting) => rawValues(setting, options, problems), problems });
  if (problems.length) {
    // A problem quotes its value, which may come from a file the user has not read: one line
    // each, its control characters escaped, a huge value cut (secrets masked before the cut).
    const shown = problems.map((problem) => outsideText(problem, PROBLEM_LIMIT));
    throw new ConfigError(shown.length === 1 ? shown[0]! : `invalid configuration:\n  ${shown.join('\n  ')}`);
  }
  return config;
}

/** A --notify value with a scheme (`scheme://…`) is a notification URL; for the gateway, anything else names a secondary. */
export const isNotifyUrl = (value: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim());

/** Each URL checked (service, https rule, what the service needs); a file may hold one a line, and `#` comment lines. */
function notifyUrls(entries: RawValue[], problems: string[], keep: (value: string) => boolean = () => true): string[] {
  const urls: string[] = [];
  for (const entry of entries) {
    const lines = entry.value.split('\n');
    for (const [i, line] of lines.entries()) {
      if (line.trim().startsWith('#')) continue;
      const origin = lines.length > 1 ? `${entry.origin} line ${i + 1}` : entry.origin;
      for (const url of line.split(',').map((s) => s.trim()).filter(keep).filter(Boolean)) {
        try {
          parseNotifyTarget(url, origin);
          urls.push(url);
        } catch (error) {
          problems.push((error as Error).message);
        }
      }
    }
  }
  return urls;
}

/** The dynamic DNS base and format; a base that ends in /json/, /xml/ or /plain/ names the format. */
function dyndnsEndpoint(url: string, formatEntry: RawValue | undefined, format: DyndnsFormat, origin: string, problems: string[]) {
  const split = splitDyndnsUrl(url);
  if (!split.format) return { url, format };
  if (formatEntry && formatEntry.value !== split.format) {
    problems.push(`${origin} ends in /${split.format}/ but ${formatEntry.origin} is ${formatEntry.value}: give the base URL, or the same format`);
  }
  return { url: split.base, format: split.format, formatFromUrl: true };
}

/** What update and daemon need to do anything at all. */
function checkCycleRequirements(config: Config, problems: string[], env: LoadOptions['env'], ttlOrigin: string | undefined): void {
  // A host that was given but refused is reported already: not also as "no host".
  const hostRefused = problems.some((p) => p.startsWith('--host:') || p.startsWith('DDEDGE_HOSTS:'));
  if (!config.hosts.length && !hostRefused) problems.push('no host to update: give --host NAME (repeatable) or DDEDGE_HOSTS=a.example.com,b.example.com');
  const dyndns = hasDyndnsCredentials(config);
  const api = hasApiCredentials(config);
  const where = env.CREDENTIALS_DIRECTORY ? `, not found in $CREDENTIALS_DIRECTORY (${env.CREDENTIALS_DIRECTORY})` : '';
  // Only what is missing, named as the user named its partner; a half-given pair is not also
  // reported as "no credentials" or "--via dyndns needs both".
  // A secret whose file could not be read is reported already: not also as missing.
  const dyndnsHalf = secretUnread(problems, 'dyndns') ? undefined : missingHalf(config, 'dyndns', where);
  const apiHalf = secretUnread(problems, 'api') ? undefined : missingHalf(config, 'api', where);
  if (dyndnsHalf) problems.push(dyndnsHalf);
  if (apiHalf) problems.push(apiHalf);
  const dyndnsSaid = Boolean(dyndnsHalf) || secretUnread(problems, 'dyndns');
  const apiSaid = Boolean(apiHalf) || secretUnread(problems, 'api');
  const asFlags = Object.values(config.origins ?? {}).some((o) => o?.startsWith('--'));
  if (config.via === 'dyndns' && !dyndns && !dyndnsSaid) problems.push(`--via dyndns needs ${bothNames('dyndns', asFlags)}`);
  if (config.via === 'api' && !api && !apiSaid) problems.push(`--via api needs ${bothNames('api', asFlags)}`);
  if (config.via === 'auto' && !dyndns && !api && !dyndnsSaid && !apiSaid) {
    problems.push(`no credentials: set ${bothNames('dyndns', asFlags)} (dynamic DNS), or ${bothNames('api', asFlags)} (registrar API)`);
  }
  checkLanRequirements(config, problems);
  // A TTL only the API can set: with dynamic DNS alone it would be silently ignored.
  if (config.ttl !== undefined && config.via === 'dyndns') problems.push(`${ttlOrigin}: dynamic DNS cannot set a TTL; use --via api or auto with DDEDGE_API_USER and DDEDGE_API_PASSWORD, or leave the TTL to the provider`);
  else if (config.ttl !== undefined && !api) problems.push(`${ttlOrigin} is set through the registrar API (dynamic DNS cannot set a TTL): set DDEDGE_API_USER and DDEDGE_API_PASSWORD`);
  if (config.ipv6 && !api) problems.push('--ipv6 keeps AAAA records through the registrar API: set DDEDGE_API_USER and DDEDGE_API_PASSWORD');
  if (config.ipv6 && !config.ip6 && config.ip6Sources.some((s) => s.kind === 'server')) {
    problems.push('--ip6-source server is not supported: the API learns only the IPv4 address of the caller');
  }
}

function rawValues(setting: Setting, options: LoadOptions, problems: string[]): RawValue[] {
  const flag = options.flags[setting.flag];
  const fileFlag = fileFlagOf(setting);
  const path = fileFlag === undefined ? undefined : options.flags[fileFlag];
  if (path !== undefined && path !== false) {
    if (typeof path !== 'string' || !path) problems.push(`--${fileFlag} needs the path of a file: --${fileFlag} PATH`);
    else if (flag !== undefined && flag !== false) problems.push(`both --${setting.flag} and --${fileFlag} are given; keep one`);
    else {
      try {
        return [{ value: readSecretFile(path, `--${fileFlag}`), origin: `--${fileFlag}` }];
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
    return [];
  }
  // A bare `--api-password` is a flag without its value, never the text "true".
  if (flag === true && setting.kind !== 'boolean') {
    problems.push(`--${setting.flag} needs a value: --${setting.flag} VALUE or --${setting.flag}=VALUE`);
    return [];
  }
  if (flag !== undefined && flag !== false) {
    const list = Array.isArray(flag) ? flag : [flag];
    return list.map((v) => ({ value: String(v), origin: `--${setting.flag}` }));
  }
  if (setting.env) {
    const value = options.env[setting.env];
    if (setting.credentialIsFile) {
      const file = value ? { value, origin: setting.env } : credentialPath(setting.credential!, options.env);
      return file ? [file] : [];
    }
    if (value && setting.credential && options.env[`${setting.env}_FILE`]) {
      problems.push(`both ${setting.env} and ${setting.env}_FILE are set; keep one`);
      return [];
    }
    if (value) return [{ value, origin: setting.env }];
    if (setting.credential) {
      try {
        const secret = readSecretSource(setting.env, setting.credential, options.env);
        if (secret) return [secret];
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
  }
  return [];
}

/** Several names separated by spaces: the list takes commas (the flag, one name each time). */
function listHint(text: string, origin: string): string {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length < 2 || !words.every((w) => isHostName(parseHostItem(w).host))) return '';
  return origin.startsWith('--') ? `; give --${SETTINGS.hosts.flag} once per host` : `; separate hosts with commas: ${origin}=${words.join(',')}`;
}

const splitList = (text: string): string[] => text.split(',').map((s) => s.trim()).filter(Boolean);
const describeSetting = (s: Setting): string => (s.env ? `${s.env} (--${s.flag})` : `--${s.flag}`);

export function defaultStateDir(env: Env, isRoot: boolean): string {
  if (env.STATE_DIRECTORY) return env.STATE_DIRECTORY.split(':')[0]!;
  if (isRoot) return '/var/lib/ddedge';
  return join(env.XDG_STATE_HOME || join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.local', 'state'), 'ddedge');
}
