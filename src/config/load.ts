// flags + environment + dotenv + *_FILE + credentials -> one validated Config. Every
// problem is collected and reported together, naming the setting and what it accepts,
// before any request is sent (exit 2).
import { join } from 'node:path';
import type { DyndnsFormat } from '../dyndns/result.js';
import { ConfigError } from '../lib/errors.js';
import { parseDuration } from '../lib/duration.js';
import { canonicalAddress, familyOfAddress, type Family } from '../lib/address.js';
import { isHostName } from '../lib/names.js';
import { checkQuorumServers } from '../ip/source-identity.js';
import { parseSources, type SourceSpec } from '../ip/sources.js';
import { outsideText } from '../lib/outside-text.js';
import { registerSecret, registerSecretUrl } from '../lib/redact.js';
import { hasApiCredentials, hasDyndnsCredentials, type Config, type ContainerSettings } from './config.js';
import { bothNames, missingHalf, secretUnread } from './credential-names.js';
import { splitDyndnsUrl } from './dyndns-base.js';
import type { Env, RawValue } from './env-sources.js';
import { checkLanRequirements, lanSettings, listenAddress, parseHostItem } from './lan-settings.js';
import { rawValues, type FlagValues } from './raw-values.js';
import { readList } from './readers.js';
import { settingReader, type SettingReader } from './setting-reader.js';
import { SETTINGS, type Setting } from './settings.js';
import { readTlsFiles, type TlsFiles } from './tls-files.js';
import { parseNotifyTarget } from '../notify/target.js';

export type { FlagValues } from './raw-values.js';

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

const MAX_TIMEOUT_MS = 5 * 60_000;
const MIN_INTERVAL_MS = 30_000;
const DAY_MS = 86_400_000;
/** One call a second, all hour: more than any agent needs, and the state's count stays small. */
export const MAX_CALLS_PER_HOUR = 3600;
/** The longest problem shown: far above any message of ours, well below a value someone pasted a file into. */
const PROBLEM_LIMIT = 1000;
/** Unhealthy once three cycles in a row have not succeeded (or not run). */
const HEALTH_INTERVALS = 3;
/** What ddclient and most providers accept for a host's record: a minute to a week. */
const MIN_TTL = 60;
const MAX_TTL = 604_800;

type SecretName = 'dyndnsKey' | 'apiPassword' | 'pingUrl' | 'listenToken';

export function loadConfig(options: LoadOptions): Config {
  const problems: string[] = [];
  const settings = settingReader(options, problems);
  const config = readConfig(settings, options);
  // A token someone can guess is no protection for a page reachable from the network.
  if (config.listenToken !== undefined && config.listenToken.length < 16) {
    settings.fail(
      'listenToken',
      settings.one('listenToken')?.origin,
      'has fewer than 16 characters; make one with: openssl rand -hex 16',
    );
  }
  if (options.purpose === 'cycle') checkCycleRequirements(config, problems, options.env, settings.one('ttl')?.origin);
  options.readMore?.({ config, env: options.env, raw: (setting) => rawValues(setting, options, problems), problems });
  if (problems.length) throw configError(problems);
  return config;
}

/**
 * --listen-cert with --listen-key, read for the commands that listen (daemon, gateway); said by where each came from (a
 * flag or a variable).
 */
function listenTls(settings: SettingReader, purpose: LoadOptions['purpose']): TlsFiles | undefined {
  if (purpose !== 'cycle' && purpose !== 'gateway') return undefined;
  const cert = settings.one('listenCert');
  const key = settings.one('listenKey');
  const names = { cert: cert?.origin ?? '--listen-cert', key: key?.origin ?? '--listen-key' };
  return readTlsFiles(cert?.value, key?.value, names, settings.problems);
}

/**
 * Every row of the table, read in the order its problems are said: hosts, address sources,
 * then the rest as Config lists them.
 */
function readConfig(settings: SettingReader, options: LoadOptions): Config {
  const { one, text } = settings;
  const { hosts, lan, service } = readHosts(settings);
  const sources = readAddressSources(settings);
  const intervalMs = settings.duration('interval', { min: MIN_INTERVAL_MS, max: 7 * DAY_MS });
  const dyndns = readDyndns(settings);
  return {
    dyndns,
    api: { url: settings.url('apiUrl'), user: text('apiUser'), password: secret(settings, 'apiPassword') },
    hosts,
    service,
    via: settings.choice('via'),
    ip: address(settings, 'ip', 4),
    ipSources: sources.ipSources,
    quorum: sources.quorum,
    ipv6: settings.boolean('ipv6'),
    ip6: address(settings, 'ip6', 6),
    ip6Sources: sources.ip6Sources,
    quorum6: sources.quorum6,
    lan: { identifiers: lan.identifiers, prefixLength: lan.prefixLength, noIpv4For: lan.noIpv4For },
    listen: listenAddress(one('listen'), settings.problems),
    listenToken: secret(settings, 'listenToken'),
    listenTls: listenTls(settings, options.purpose),
    stateDir: text('stateDir') ?? defaultStateDir(options.env, options.isRoot ?? process.getuid?.() === 0),
    // Only a cycle re-sends: `DDEDGE_MAX_AGE=1s ddedge health` is no error of health's.
    maxAgeMs:
      options.purpose === 'cycle'
        ? settings.duration('maxAge', { min: 60_000, max: 366 * DAY_MS })
        : (parseDuration(text('maxAge')!) ?? 0),
    timeoutMs: settings.duration('timeout', { min: 100, max: MAX_TIMEOUT_MS }),
    intervalMs,
    healthLimitMs: one('healthyWithin')
      ? settings.duration('healthyWithin', { min: 1000, max: 366 * DAY_MS })
      : HEALTH_INTERVALS * intervalMs,
    ttl: one('ttl') ? settings.count('ttl', { min: MIN_TTL, max: MAX_TTL }) : undefined,
    allowPrivateIp: settings.boolean('allowPrivateIp'),
    maxCallsPerHour: settings.count('maxCallsPerHour', { min: 1, max: MAX_CALLS_PER_HOUR }),
    logLevel: settings.choice('logLevel'),
    logFormat: settings.choice('logFormat'),
    edge: readEdge(settings),
    ...readContainers(settings),
    notify: readNotify(settings, options.purpose),
    origins: {
      dyndnsUser: one('dyndnsUser')?.origin,
      dyndnsKey: one('dyndnsKey')?.origin,
      apiUser: one('apiUser')?.origin,
      apiPassword: one('apiPassword')?.origin,
    },
    acme: {
      dnsServers: settings.list('dnsServers'),
      propagationTimeoutMs: settings.duration('propagationTimeout', { min: 1000, max: 60 * 60_000 }),
    },
  };
}

/**
 * --containers with its two companions; none of them without it. The URL is judged by the engine's own reader
 * (containers/engine/engine-url.ts) when the command starts, with what to write instead; it is named as given.
 */
function readContainers(settings: SettingReader): { containers?: ContainerSettings } {
  const given = settings.one('containers');
  if (!given) return {};
  return {
    containers: {
      url: given.value.trim(),
      setting: given.origin,
      traefik: settings.boolean('containersTraefik'),
      graceMs: settings.duration('containersGrace', { min: 0, max: 7 * DAY_MS }),
    },
  };
}

/** Problems shown one line each, their control characters escaped, a huge value cut (secrets masked before the cut). */
function configError(problems: string[]): ConfigError {
  // A problem quotes its value, which may come from a file the user has not read.
  const shown = problems.map((problem) => outsideText(problem, PROBLEM_LIMIT));
  return new ConfigError(shown.length === 1 ? shown[0]! : `invalid configuration:\n  ${shown.join('\n  ')}`);
}

/** A secret's value, registered so that logs and errors show it masked. */
function secret(settings: SettingReader, name: SecretName): string | undefined {
  const value = settings.one(name)?.value;
  if (name === 'pingUrl') registerSecretUrl(value);
  else registerSecret(value);
  return value;
}

function address(settings: SettingReader, name: 'ip' | 'ip6', family: Family): string | undefined {
  const entry = settings.one(name);
  if (!entry) return undefined;
  const valid = familyOfAddress(entry.value) === family;
  if (!valid) settings.fail(name, entry.origin, `"${entry.value}" is not an IPv${family} address`);
  return valid ? canonicalAddress(entry.value) : undefined;
}

/** The hosts (NAME or NAME=<IPv6 interface identifier>), the LAN settings they need, the service that holds them. */
function readHosts(settings: SettingReader) {
  const { fail } = settings;
  const hosts: string[] = [];
  const lan = lanSettings(settings.raw, fail);
  for (const { value: item, origin } of readList(settings.raw('hosts'))) {
    const { host, identifier } = parseHostItem(item);
    if (!isHostName(host))
      fail('hosts', origin, `${JSON.stringify(host)} is not a fully qualified host name${listHint(host, origin)}`);
    else if (!hosts.includes(host)) {
      hosts.push(host);
      if (identifier !== undefined) lan.define(host, identifier, origin);
    } else if (lan.identifiers[host] !== (identifier === undefined ? undefined : lan.canonical(identifier))) {
      // Repeating a host is harmless; one name with two meanings is not.
      const how =
        identifier === undefined || lan.identifiers[host] === undefined
          ? 'with and without an interface identifier'
          : 'with two interface identifiers';
      fail('hosts', origin, `"${host}" is given twice, ${how}; one name, one host`);
    }
  }
  const serviceEntry = settings.one('service');
  if (serviceEntry && !isHostName(serviceEntry.value.toLowerCase()))
    fail('service', serviceEntry.origin, `"${serviceEntry.value}" is not a domain name`);
  return { hosts, lan, service: serviceEntry?.value.toLowerCase() };
}

/** Where the addresses are learnt, and how many sources must agree. */
function readAddressSources(settings: SettingReader) {
  const ipSources = sourceList(settings, 'ipSources', 4);
  const ip6Sources = sourceList(settings, 'ip6Sources', 6);
  const quorumEntry = settings.one('quorum');
  let quorum = ipSources.length === 1 ? 1 : 2;
  if (quorumEntry) {
    const before = settings.problems.length;
    quorum = settings.count('quorum', { min: 1 });
    if (settings.problems.length === before && ipSources.length && quorum > ipSources.length) {
      settings.fail(
        'quorum',
        quorumEntry.origin,
        `${quorum} is more than the ${ipSources.length} IPv4 sources configured`,
      );
    }
  }
  const quorum6 = Math.max(1, Math.min(quorum, ip6Sources.length));
  // One server named twice must not make a quorum: it is one witness, not two.
  for (const [specs, needed, name] of [
    [ipSources, quorum, 'ipSources'],
    [ip6Sources, quorum6, 'ip6Sources'],
  ] as const) {
    try {
      checkQuorumServers(specs, needed, settings.raw(name)[0]?.origin ?? `--${SETTINGS[name].flag}`);
    } catch (error) {
      settings.problems.push((error as Error).message);
    }
  }
  return { ipSources, ip6Sources, quorum, quorum6 };
}

function sourceList(settings: SettingReader, name: 'ipSources' | 'ip6Sources', family: Family): SourceSpec[] {
  const entries = settings.raw(name);
  try {
    return parseSources(settings.list(name), family, entries[0]?.origin ?? `--${SETTINGS[name].flag}`);
  } catch (error) {
    settings.problems.push((error as Error).message);
    return [];
  }
}

function readDyndns(settings: SettingReader): Config['dyndns'] {
  const { one } = settings;
  const url = settings.url('dyndnsUrl');
  const endpoint = dyndnsEndpoint(
    url,
    one('dyndnsFormat'),
    settings.choice('dyndnsFormat'),
    one('dyndnsUrl')?.origin ?? '--dyndns-url',
    settings.problems,
  );
  return {
    ...endpoint,
    user: settings.text('dyndnsUser'),
    key: secret(settings, 'dyndnsKey'),
    keyParam: settings.choice('dyndnsKeyParam'),
  };
}

/** What happens around a cycle: hook, heartbeat, metrics. */
function readEdge(settings: SettingReader): Config['edge'] {
  return {
    onChange: settings.text('onChange'),
    onChangeTimeoutMs: settings.duration('onChangeTimeout', { min: 100, max: 10 * 60_000 }),
    // A ping URL carries the check's identity: anyone who has it can report for it.
    pingUrl: secret(settings, 'pingUrl') === undefined ? undefined : settings.url('pingUrl'),
    metricsFile: settings.text('metricsFile'),
  };
}

/**
 * update, daemon and notify take every --notify URL; the gateway's --notify also names its
 * secondaries (HOST[:PORT]): it takes only the URLs here.
 */
function readNotify(settings: SettingReader, purpose: LoadOptions['purpose']): string[] {
  if (purpose === 'cycle' || purpose === 'notify') return notifyUrls(settings.raw('notify'), settings.problems);
  if (purpose === 'gateway') return notifyUrls(settings.raw('notify'), settings.problems, isNotifyUrl);
  return [];
}

/**
 * A --notify value with a scheme (`scheme://…`) is a notification URL; for the gateway, anything else names a
 * secondary.
 */
export const isNotifyUrl = (value: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim());

/**
 * Each URL checked (service, https rule, what the service needs); a file may hold one a line, and `#` comment lines.
 */
function notifyUrls(entries: RawValue[], problems: string[], keep: (value: string) => boolean = () => true): string[] {
  const urls: string[] = [];
  for (const { value: url, origin, line } of readList(entries)) {
    if (!keep(url)) continue;
    try {
      parseNotifyTarget(url, line === undefined ? origin : `${origin} line ${line}`);
      urls.push(url);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return urls;
}

/** The dynamic DNS base and format; a base that ends in /json/, /xml/ or /plain/ names the format. */
function dyndnsEndpoint(
  url: string,
  formatEntry: RawValue | undefined,
  format: DyndnsFormat,
  origin: string,
  problems: string[],
) {
  const split = splitDyndnsUrl(url);
  if (!split.format) return { url, format };
  if (formatEntry && formatEntry.value !== split.format) {
    problems.push(
      `${origin} ends in /${split.format}/ but ${formatEntry.origin} is ${formatEntry.value}: give the base URL, or ` +
        `the same format`,
    );
  }
  return { url: split.base, format: split.format, formatFromUrl: true };
}

/** What update and daemon need to do anything at all. */
function checkCycleRequirements(
  config: Config,
  problems: string[],
  env: LoadOptions['env'],
  ttlOrigin: string | undefined,
): void {
  // A host that was given but refused is reported already: not also as "no host".
  const hostRefused = problems.some((p) => p.startsWith('--host:') || p.startsWith('DDEDGE_HOSTS:'));
  if (!config.hosts.length && !hostRefused && !(config.containers && config.service))
    problems.push('no host to update: give --host NAME (repeatable) or DDEDGE_HOSTS=a.example.com,b.example.com');

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
  if (config.via === 'dyndns' && !dyndns && !dyndnsSaid)
    problems.push(`--via dyndns needs ${bothNames('dyndns', asFlags)}`);
  if (config.via === 'api' && !api && !apiSaid) problems.push(`--via api needs ${bothNames('api', asFlags)}`);
  if (config.via === 'auto' && !dyndns && !api && !dyndnsSaid && !apiSaid) {
    problems.push(
      `no credentials: set ${bothNames('dyndns', asFlags)} (dynamic DNS), or ${bothNames('api', asFlags)} ` +
        `(registrar API)`,
    );
  }
  checkLanRequirements(config, problems);
  if (config.containers && !api && !apiSaid)
    problems.push(
      `--containers creates and deletes records through the registrar API: set ${bothNames('api', asFlags)}`,
    );
  // A TTL only the API can set: with dynamic DNS alone it would be silently ignored.
  if (config.ttl !== undefined && config.via === 'dyndns')
    problems.push(
      `${ttlOrigin}: dynamic DNS cannot set a TTL; use --via api or auto with DDEDGE_API_USER and ` +
        `DDEDGE_API_PASSWORD, or leave the TTL to the provider`,
    );
  else if (config.ttl !== undefined && !api)
    problems.push(
      `${ttlOrigin} is set through the registrar API (dynamic DNS cannot set a TTL): set DDEDGE_API_USER and ` +
        `DDEDGE_API_PASSWORD`,
    );
  if (config.ipv6 && !api)
    problems.push('--ipv6 keeps AAAA records through the registrar API: set DDEDGE_API_USER and DDEDGE_API_PASSWORD');
  if (config.ipv6 && !config.ip6 && config.ip6Sources.some((s) => s.kind === 'server')) {
    problems.push('--ip6-source server is not supported: the API learns only the IPv4 address of the caller');
  }
}

/** Several names separated by spaces: the list takes commas (the flag, one name each time). */
function listHint(text: string, origin: string): string {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length < 2 || !words.every((w) => isHostName(parseHostItem(w).host))) return '';
  return origin.startsWith('--')
    ? `; give --${SETTINGS.hosts.flag} once per host`
    : `; separate hosts with commas: ${origin}=${words.join(',')}`;
}

export function defaultStateDir(env: Env, isRoot: boolean): string {
  if (env.STATE_DIRECTORY) return env.STATE_DIRECTORY.split(':')[0]!;
  if (isRoot) return '/var/lib/ddedge';
  return join(
    env.XDG_STATE_HOME || join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.local', 'state'),
    'ddedge',
  );
}
