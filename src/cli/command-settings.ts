// Which settings each command reads, for its --help: a command's help lists these and points
// to `ddedge --help` for the rest (every command accepts every setting, so that one dotenv
// file or unit environment serves them all). `ddedge api` is the exception: its arguments are
// the operation's parameters, and of the settings it takes on its command line only these
// (API_COMMAND_SETTINGS), which its parser, its help and the completion script all read.
import type { SettingName } from '../config/settings.js';

const LOGS: SettingName[] = ['logLevel', 'logFormat'];
/** The registrar API's connection: where, and as whom. */
export const API_CONNECTION: readonly SettingName[] = ['apiUrl', 'apiUser', 'apiPassword'];
const API = API_CONNECTION;
/** The settings `ddedge api` takes from its command line; every other word after the action is an API parameter. */
export const API_COMMAND_SETTINGS: readonly SettingName[] = [...API_CONNECTION, 'timeout', ...LOGS];
const DETECT: SettingName[] = ['ip', 'ipSources', 'quorum', 'ipv6', 'ip6', 'ip6Sources', 'allowPrivateIp', 'timeout'];
const CYCLE: SettingName[] = [
  'hosts',
  'dyndnsUrl',
  'dyndnsFormat',
  'dyndnsUser',
  'dyndnsKey',
  'dyndnsKeyParam',
  ...API,
  'service',
  'via',
  'ttl',
  ...DETECT,
  'ip6PrefixLength',
  'noIpv4For',
  'stateDir',
  'maxAge',
  'maxCallsPerHour',
  'onChange',
  'onChangeTimeout',
  'pingUrl',
  'notify',
  'metricsFile',
  'containers',
  'containersTraefik',
  'containersGrace',
  ...LOGS,
];

export const COMMAND_SETTINGS: Record<string, readonly SettingName[]> = {
  update: CYCLE,
  daemon: [...CYCLE, 'interval', 'listen', 'listenToken', 'listenCert', 'listenKey', 'healthyWithin'],
  ip: [...DETECT, ...LOGS],
  status: ['stateDir', ...LOGS],
  health: ['stateDir', 'healthyWithin', 'interval', ...LOGS],
  zone: [...API, 'service', 'hosts', 'stateDir', 'timeout', 'dnsServers', ...LOGS],
  acme: [...API, 'service', 'dnsServers', 'propagationTimeout', 'stateDir', 'timeout', ...LOGS],
  // --listen and --max-calls-per-hour are rows of the gateway's own table (GATEWAY_SETTINGS, its flags in registry.ts):
  // its own variables and budget.
  gateway: [...API, 'hosts', 'stateDir', 'timeout', 'listenToken', 'listenCert', 'listenKey', ...LOGS],
  api: API_COMMAND_SETTINGS,
};

/**
 * A setting that means something else to a command than its general description says: each
 * command's help describes the setting as that command uses it (the gateway keeps no host pointed
 * at its machine).
 */
export const COMMAND_SETTING_TEXT: Record<string, Partial<Record<SettingName, string>>> = {
  zone: {
    hosts: "the agent's host names: a plan leaves their A and AAAA records to the agent",
    dnsServers:
      "export --complete: the name servers, HOST[:PORT], asked for the zone's SOA and NS (repeatable; default: the " +
      "zone's authoritative servers)",
  },
  gateway: {
    hosts: "the agent's host names (same state directory): changed through the gateway only by a grant that names them",
  },
};
