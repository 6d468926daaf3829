// The gateway's settings (GATEWAY_SETTINGS in settings.ts), read in the configuration's one
// pass: flag, variable, dotenv file, <VARIABLE>_FILE and credential as for every other setting,
// and every problem reported with the others (exit 2) before anything listens or is asked.
// Loaded with `ddedge gateway` only: a cycle of the agent never parses it.
import { hostname } from 'node:os';
import { parseDnsServer } from '../dns/client/servers.js';
import type { DnsServer } from '../dns/wire/types.js';
import { canonicalName, lowerName } from '../lib/names.js';
import { canonicalIdentifier, DEFAULT_PREFIX_LENGTH, identifierProblem } from '../lib/interface-id.js';
import type { ListenAddress } from '../lib/listen-address.js';
import { parseNotifyTarget } from '../notify/target.js';
import { apiCredentialsProblem } from './api-credentials.js';
import type { RawValue } from './env-sources.js';
import { listenAddress, parseHostItem } from './lan-settings.js';
import { listValues, readCount, readDuration, readList, valueNoting } from './readers.js';
import { isNotifyUrl, MAX_CALLS_PER_HOUR, type SettingsPass } from './load.js';
import { GATEWAY_SETTINGS, type Setting } from './settings.js';
import { readTlsFiles, type TlsFiles } from './tls-files.js';

export interface Dyndns2Settings {
  listen: ListenAddress[];
  tls?: TlsFiles;
  /** Canonical interface identifier by host name. */
  prefixHosts: Map<string, string>;
  /** The flags as the user named them (--http-listen or its older name --dyndns2-listen), for messages. */
  flags?: { listen: string; cert: string; key: string };
}

export interface GatewayConfig {
  zones: string[];
  /** As given: relative to the folder ddedge runs in. */
  keysFile: string;
  listen: ListenAddress[];
  primaryName: string;
  /** --primary-name was given; otherwise it is the host's name, which may not be a full name. */
  primaryGiven: boolean;
  refreshMs: number;
  /** Secondaries sent a NOTIFY after each change (--notify HOST[:PORT]). */
  notify: DnsServer[];
  /** Told of refused-update bursts and zones changed elsewhere (--notify URL, DDEDGE_NOTIFY). */
  notifyUrls: string[];
  /** Where /healthz, /metrics and /status are served; off when undefined. */
  httpListen?: ListenAddress;
  maxCallsPerHour: number;
  /** The dyndns2 door; off when undefined. */
  dyndns2?: Dyndns2Settings;
}

type GatewaySettingName = keyof typeof GATEWAY_SETTINGS;

/** Reads the gateway's rows; what is wrong goes to `pass.problems`, said with the rest. */
export function readGatewaySettings(pass: SettingsPass): GatewayConfig {
  const { config, env, problems } = pass;
  const raw = (name: GatewaySettingName): RawValue[] => pass.raw(GATEWAY_SETTINGS[name] as Setting);

  const zones = listValues(raw('zones')).map(lowerName);
  if (!zones.length)
    problems.push('gateway: name the zones to serve: --zone NAME (repeatable) or DDEDGE_GATEWAY_ZONES');

  const keysFile = raw('keysFile').at(-1)?.value ?? '';
  if (!keysFile) {
    const where = env.CREDENTIALS_DIRECTORY
      ? `, not found in $CREDENTIALS_DIRECTORY (${env.CREDENTIALS_DIRECTORY})`
      : '';
    problems.push(
      `gateway: give the keys file: --keys FILE, DDEDGE_GATEWAY_KEYS_FILE or the gateway-keys credential${where} ` +
        `(ddedge gateway keygen NAME makes a key)`,
    );
  }

  const dnsListenEntries = raw('dnsListen');
  const dnsListen = dnsListenEntries.length
    ? readList(dnsListenEntries)
    : [{ value: GATEWAY_SETTINGS.dnsListen.default, origin: '--dns-listen' }];
  const listen = dnsListen.flatMap((item) => listenAddress(item, problems) ?? []);

  const refresh = raw('refresh').at(-1);
  const refreshText = refresh?.value ?? GATEWAY_SETTINGS.refresh.default;
  const refreshMs = valueNoting(readDuration(refreshText, { min: 1000 }, refresh?.origin ?? '--refresh'), problems);

  const primaryGiven = raw('primaryName').at(-1)?.value;
  const primaryName = lowerName(primaryGiven ?? hostname());

  const { notify, notifyUrls } = notifyTargets(raw('notify'), config.notify, problems);

  const apiProblem = apiCredentialsProblem(config, problems);
  if (apiProblem) problems.push(`gateway: ${apiProblem}`);

  return {
    zones,
    keysFile,
    listen,
    primaryName,
    primaryGiven: primaryGiven !== undefined,
    refreshMs,
    notify,
    notifyUrls,
    httpListen: httpListen(raw('httpListen').at(-1), pass),
    maxCallsPerHour: maxCallsPerHour(raw('maxCallsPerHour').at(-1), pass),
    dyndns2: dyndns2Settings(raw, problems),
  };
}

/**
 * --notify takes both, told apart by form: a URL (scheme://…) gets notifications, HOST[:PORT]
 * is a DNS secondary. The flag's URLs are read (and checked) with DDEDGE_NOTIFY, in `agentUrls`.
 */
function notifyTargets(
  entries: RawValue[],
  agentUrls: string[],
  problems: string[],
): { notify: DnsServer[]; notifyUrls: string[] } {
  const notify: DnsServer[] = [];
  const notifyUrls = new Set(agentUrls);
  for (const { value: item, origin } of readList(entries)) {
    // A "/" is in no HOST[:PORT]: such a value is a URL mistyped (`https:/…`), a secret whose
    // refusal as a secondary would quote it; the URL check says what is wrong without showing it.
    const url = isNotifyUrl(item) || item.includes('/');
    try {
      if (!url) notify.push(parseDnsServer(item, origin));
      else if (origin !== '--notify' || !isNotifyUrl(item)) {
        parseNotifyTarget(item, origin);
        notifyUrls.add(item);
      }
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return { notify, notifyUrls: [...notifyUrls] };
}

/**
 * --listen is read with the agent's settings (config.listen); DDEDGE_GATEWAY_HTTP_LISTEN wins over its DDEDGE_LISTEN.
 */
function httpListen(entry: RawValue | undefined, { config, problems }: SettingsPass): ListenAddress | undefined {
  if (!entry || entry.origin === '--listen') return config.listen;
  return listenAddress(entry, problems);
}

/** The gateway's budget is its own, 600 unless set: the agent's default of 60 would not carry a zone's updates. */
function maxCallsPerHour(entry: RawValue | undefined, { config, env, problems }: SettingsPass): number {
  if (entry?.origin === '--max-calls-per-hour' || (!entry && env.DDEDGE_MAX_CALLS_PER_HOUR !== undefined))
    return config.maxCallsPerHour;
  if (!entry) return Number(GATEWAY_SETTINGS.maxCallsPerHour.default);
  return valueNoting(readCount(entry.value, { min: 1, max: MAX_CALLS_PER_HOUR }, entry.origin), problems);
}

/** The HTTP door's settings by their two names: general (--http-*) and older (--dyndns2-*). */
const DOOR_NAMES = {
  listen: ['httpDoorListen', 'dyndns2Listen'],
  cert: ['httpDoorCert', 'dyndns2Cert'],
  key: ['httpDoorKey', 'dyndns2Key'],
} as const satisfies Record<string, [GatewaySettingName, GatewaySettingName]>;

/**
 * The HTTP door's settings, each given by either of its names: their values, and the flags to
 * name them by (the older names when only those were used). Two different values under the two
 * names of one setting are a problem.
 */
function doorSettings(raw: (name: GatewaySettingName) => RawValue[], problems: string[]) {
  const given = (names: readonly [GatewaySettingName, GatewaySettingName]): [RawValue[], RawValue[]] => [
    raw(names[0]),
    raw(names[1]),
  ];
  const all = Object.values(DOOR_NAMES).map(given);
  const older = all.some(([, b]) => b.length) && !all.some(([a]) => a.length) ? 1 : 0;
  const text = (entries: RawValue[]) => listValues(entries).join(',');
  const pick = (names: readonly [GatewaySettingName, GatewaySettingName]) => {
    const [a, b] = given(names);
    // The same setting by two names: given twice alike is one value; two different values is a question to the user.
    if (a.length && b.length && text(a) !== text(b))
      problems.push(
        `--${GATEWAY_SETTINGS[names[0]].flag} and --${GATEWAY_SETTINGS[names[1]].flag} are one setting by two ` +
          `names, given two different values (${a[0]!.origin} and ${b[0]!.origin}): give one`,
      );
    return { entries: a.length ? a : b, flag: `--${GATEWAY_SETTINGS[names[older]].flag}` };
  };
  return { listen: pick(DOOR_NAMES.listen), cert: pick(DOOR_NAMES.cert), key: pick(DOOR_NAMES.key) };
}

/**
 * The HTTP door (dyndns2, httpreq, acme-dns): --http-listen (repeatable; --dyndns2-listen by its older name),
 * --http-cert with --http-key (--dyndns2-cert, --dyndns2-key), --prefix-host NAME=<IPv6 interface identifier>.
 */
function dyndns2Settings(
  raw: (name: GatewaySettingName) => RawValue[],
  problems: string[],
): Dyndns2Settings | undefined {
  const before = problems.length;
  const { listen: listenSetting, cert, key } = doorSettings(raw, problems);
  const listen = readList(listenSetting.entries).flatMap((item) => listenAddress(item, problems) ?? []);
  const certFile = cert.entries.at(-1)?.value;
  const keyFile = key.entries.at(-1)?.value;
  const prefixHosts = readPrefixHosts(listValues(raw('prefixHosts')), problems);
  if (!listen.length) {
    // Only the flags given are named, by the names they were given.
    const given = [certFile && cert.flag, keyFile && key.flag, prefixHosts.size && '--prefix-host'].filter(Boolean);
    const named = [given.slice(0, -1).join(', '), given.at(-1)].filter(Boolean).join(' and ');
    if (given.length)
      problems.push(
        `${named} ${given.length > 1 ? 'are' : 'is'} for the HTTP door: give ${listenSetting.flag} ADDR:PORT too`,
      );
    return undefined;
  }
  const flags = { listen: listenSetting.flag, cert: cert.flag, key: key.flag };
  const tls = readTlsFiles(certFile, keyFile, flags, problems);
  return problems.length > before ? undefined : { listen, tls, prefixHosts, flags };
}

/** --prefix-host NAME=<IPv6 interface identifier>, repeatable: the canonical identifier by host name. */
function readPrefixHosts(items: string[], problems: string[]): Map<string, string> {
  const prefixHosts = new Map<string, string>();
  for (const item of items) {
    const { host, identifier } = parseHostItem(item);
    const name = canonicalName(host);
    if (!identifier || !name?.includes('.')) {
      problems.push(
        `--prefix-host: "${item}" is not NAME=<IPv6 interface identifier> (e.g. nas.example.com=::1e2:3ff:fe4a:5b6c)`,
      );
      continue;
    }
    const problem = identifierProblem(identifier, DEFAULT_PREFIX_LENGTH);
    if (problem) problems.push(`--prefix-host ${name}: ${problem}`);
    else prefixHosts.set(name, canonicalIdentifier(identifier));
  }
  return prefixHosts;
}
