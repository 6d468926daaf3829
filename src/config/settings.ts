// The contract's configuration table, declared once. The flag parser, the loader, `--help`
// and docs/agent.md's reference all follow it.

type SettingKind =
  | 'string'
  | 'url'
  | 'duration'
  | 'boolean'
  | 'enum'
  | 'hosts'
  | 'sources'
  | 'integer'
  | 'ipv4'
  | 'ipv6'
  | 'path'
  | 'domain';

export interface Setting {
  flag: string;
  env?: string;
  kind: SettingKind;
  values?: readonly string[];
  /** Repeatable flag; the variable is comma-separated. */
  multiple?: boolean;
  /** A secret: also read from <env>_FILE and from $CREDENTIALS_DIRECTORY/<credential>. */
  credential?: string;
  /**
   * The credential is the file itself, used by its path (the gateway's keys file: its mode is
   * checked and SIGHUP reads it again); there is no <env>_FILE, the variable names a file already.
   */
  credentialIsFile?: boolean;
  /** No --<flag>-file: the flag is shared with another setting, which reads that file (the gateway's --notify). */
  noFileFlag?: boolean;
  /** The value of the flag given alone (`--containers` followed by no value, or by another flag). */
  bare?: string;
  default?: string;
  describe: string;
}

export const SETTINGS = {
  dyndnsUrl: {
    flag: 'dyndns-url',
    env: 'DDEDGE_DYNDNS_URL',
    kind: 'url',
    default: 'https://dondns.dondominio.com',
    describe:
      'base of the dynamic DNS interface; /<format>/ is appended (a URL ending in /json/, /xml/ or /plain/ names ' +
      'the format)',
  },
  dyndnsFormat: {
    flag: 'dyndns-format',
    env: 'DDEDGE_DYNDNS_FORMAT',
    kind: 'enum',
    values: ['json', 'xml', 'plain'],
    default: 'json',
    describe: 'answer format',
  },
  dyndnsUser: { flag: 'dyndns-user', env: 'DDEDGE_DYNDNS_USER', kind: 'string', describe: 'dynamic DNS user name' },
  dyndnsKey: {
    flag: 'dyndns-key',
    env: 'DDEDGE_DYNDNS_KEY',
    kind: 'string',
    credential: 'dyndns-key',
    describe: 'dynamic DNS key (prefer DDEDGE_DYNDNS_KEY_FILE or the dyndns-key credential)',
  },
  dyndnsKeyParam: {
    flag: 'dyndns-key-param',
    env: 'DDEDGE_DYNDNS_KEY_PARAM',
    kind: 'enum',
    values: ['password', 'apikey'],
    default: 'password',
    describe: "the key's query parameter: the server accepts 'password'; the spec names 'apikey'",
  },
  apiUrl: {
    flag: 'api-url',
    env: 'DDEDGE_API_URL',
    kind: 'url',
    default: 'https://simple-api.dondominio.net',
    describe: 'registrar API base',
  },
  apiUser: { flag: 'api-user', env: 'DDEDGE_API_USER', kind: 'string', describe: 'registrar API user (apiuser)' },
  apiPassword: {
    flag: 'api-password',
    env: 'DDEDGE_API_PASSWORD',
    kind: 'string',
    credential: 'api-password',
    describe: 'registrar API password (prefer DDEDGE_API_PASSWORD_FILE or the api-password credential)',
  },
  hosts: {
    flag: 'host',
    env: 'DDEDGE_HOSTS',
    kind: 'hosts',
    multiple: true,
    describe:
      'host name to keep pointed at this machine (repeatable; variable comma-separated); NAME=<IPv6 interface ' +
      'identifier> for a machine behind it',
  },
  service: {
    flag: 'service',
    env: 'DDEDGE_SERVICE',
    kind: 'domain',
    describe: "hosting service whose DNS zone holds the hosts (default: each host's registered domain)",
  },
  via: {
    flag: 'via',
    env: 'DDEDGE_VIA',
    kind: 'enum',
    values: ['auto', 'dyndns', 'api'],
    default: 'auto',
    describe: 'dyndns, api, or auto: dynamic DNS first, the API when that fails and API credentials are set',
  },
  ip: { flag: 'ip', env: 'DDEDGE_IP', kind: 'ipv4', describe: 'use this IPv4 address; no detection' },
  ipSources: {
    flag: 'ip-source',
    env: 'DDEDGE_IP_SOURCES',
    kind: 'sources',
    multiple: true,
    describe: 'where the public IPv4 address is learnt (repeatable; default: the built-in list)',
  },
  quorum: {
    flag: 'quorum',
    env: 'DDEDGE_IP_QUORUM',
    kind: 'integer',
    describe: 'how many sources must report the same address (default 2, or 1 with a single source)',
  },
  ipv6: {
    flag: 'ipv6',
    env: 'DDEDGE_IPV6',
    kind: 'boolean',
    default: 'false',
    describe: 'also keep AAAA records (through the API)',
  },
  ip6: { flag: 'ip6', env: 'DDEDGE_IP6', kind: 'ipv6', describe: 'use this IPv6 address; no detection' },
  ip6Sources: {
    flag: 'ip6-source',
    env: 'DDEDGE_IP6_SOURCES',
    kind: 'sources',
    multiple: true,
    describe: 'as --ip-source, for IPv6',
  },
  ip6PrefixLength: {
    flag: 'ip6-prefix-length',
    env: 'DDEDGE_IP6_PREFIX_LENGTH',
    kind: 'integer',
    default: '64',
    describe:
      "length of the delegated IPv6 prefix joined with a host's interface identifier (--host NAME=::1:2:3:4): 48 to " +
      '64, or 128',
  },
  noIpv4For: {
    flag: 'no-ipv4-for',
    env: 'DDEDGE_NO_IPV4_FOR',
    kind: 'hosts',
    multiple: true,
    describe: 'hosts that get no A record, only their AAAA (repeatable; variable comma-separated)',
  },
  stateDir: {
    flag: 'state-dir',
    env: 'DDEDGE_STATE_DIR',
    kind: 'path',
    describe:
      'cache and lock directory (default $STATE_DIRECTORY, /var/lib/ddedge as root, else $XDG_STATE_HOME/ddedge or ' +
      '~/.local/state/ddedge)',
  },
  maxAge: {
    flag: 'max-age',
    env: 'DDEDGE_MAX_AGE',
    kind: 'duration',
    default: '7d',
    describe: 're-send an unchanged address after this long',
  },
  timeout: { flag: 'timeout', env: 'DDEDGE_TIMEOUT', kind: 'duration', default: '15s', describe: 'per request' },
  healthyWithin: {
    flag: 'healthy-within',
    env: 'DDEDGE_HEALTH_MAX_AGE',
    kind: 'duration',
    describe:
      'health and /healthz: healthy while the last successful cycle is newer than this (default 3 x --interval); ' +
      '"ddedge health --max-age D" is the same',
  },
  ttl: {
    flag: 'ttl',
    env: 'DDEDGE_TTL',
    kind: 'integer',
    describe:
      "TTL in seconds of the agent's records, 60 to 604800 (default: the provider's). Set through the registrar " +
      'API: dynamic DNS cannot set one, so with --ttl every record goes through the API',
  },
  interval: {
    flag: 'interval',
    env: 'DDEDGE_INTERVAL',
    kind: 'duration',
    default: '5m',
    describe: 'time between cycles (daemon only)',
  },
  listen: {
    flag: 'listen',
    env: 'DDEDGE_LISTEN',
    kind: 'string',
    describe:
      'daemon and gateway: ADDR:PORT serving the status page (/), /healthz, /metrics and /status over HTTP (off by ' +
      'default; beyond loopback the page needs --listen-token)',
  },
  listenToken: {
    flag: 'listen-token',
    env: 'DDEDGE_LISTEN_TOKEN',
    kind: 'string',
    credential: 'listen-token',
    describe:
      'the token the status page and its "update now" need when --listen is beyond loopback (from every client, this ' +
      'machine included), or asked for by a name other than loopback; sent as Authorization: Bearer or ?token= (a ' +
      'secret; without it the page is off beyond loopback)',
  },
  listenCert: {
    flag: 'listen-cert',
    env: 'DDEDGE_LISTEN_CERT',
    kind: 'path',
    describe:
      'PEM certificate chain, with --listen-key: serve --listen over TLS, so the token of --listen-token never ' +
      'crosses a network in clear text',
  },
  listenKey: {
    flag: 'listen-key',
    env: 'DDEDGE_LISTEN_KEY',
    kind: 'path',
    describe: 'PEM private key of --listen-cert',
  },
  allowPrivateIp: {
    flag: 'allow-private-ip',
    env: 'DDEDGE_ALLOW_PRIVATE_IP',
    kind: 'boolean',
    default: 'false',
    describe: 'accept detected addresses that are not public',
  },
  logLevel: {
    flag: 'log-level',
    env: 'DDEDGE_LOG_LEVEL',
    kind: 'enum',
    values: ['error', 'warn', 'info', 'debug'],
    default: 'info',
    describe: 'log level',
  },
  onChange: {
    flag: 'on-change',
    env: 'DDEDGE_ON_CHANGE',
    kind: 'string',
    describe:
      'shell command run after a record changes; gets DDEDGE_HOST, DDEDGE_TYPE, DDEDGE_OLD_ADDRESS, ' +
      'DDEDGE_NEW_ADDRESS, DDEDGE_VIA (never the secrets)',
  },
  onChangeTimeout: {
    flag: 'on-change-timeout',
    env: 'DDEDGE_ON_CHANGE_TIMEOUT',
    kind: 'duration',
    default: '30s',
    describe: 'how long --on-change may run (then it is stopped)',
  },
  pingUrl: {
    flag: 'ping-url',
    env: 'DDEDGE_PING_URL',
    kind: 'url',
    credential: 'ping-url',
    describe: 'heartbeat monitor (Healthchecks-style): <url>/start, <url> on success, <url>/fail; shown as *** in logs',
  },
  notify: {
    flag: 'notify',
    env: 'DDEDGE_NOTIFY',
    kind: 'string',
    multiple: true,
    credential: 'notify',
    describe:
      'URL told of address changes and failures (update, daemon; repeatable; variable comma-separated; a secret): ' +
      'https://… gets each event as JSON; ntfy://, gotify://, discord://, slack://, telegram://, matrix://, ' +
      "pushover:// the service's own message",
  },
  metricsFile: {
    flag: 'metrics-file',
    env: 'DDEDGE_METRICS_FILE',
    kind: 'path',
    describe:
      "Prometheus text-format metrics, written atomically after each cycle (node_exporter's textfile collector)",
  },
  maxCallsPerHour: {
    flag: 'max-calls-per-hour',
    env: 'DDEDGE_MAX_CALLS_PER_HOUR',
    kind: 'integer',
    default: '60',
    describe:
      "hourly budget of provider calls (the agent's own: update, daemon), counted in the state; past it, exit 4 " +
      'until calls resume; the gateway counts its own (DDEDGE_GATEWAY_MAX_CALLS_PER_HOUR)',
  },
  containers: {
    flag: 'containers',
    env: 'DDEDGE_CONTAINERS',
    kind: 'string',
    bare: 'unix:///var/run/docker.sock',
    describe:
      "Docker Engine API whose containers' labels name hosts (update, daemon; " +
      'ddedge.hosts=NAME[,NAME…], ddedge.target=HOST): unix:///var/run/docker.sock when given alone, a podman ' +
      'socket (unix://…/podman.sock), or http://HOST:PORT (loopback or a socket proxy)',
  },
  containersTraefik: {
    flag: 'containers-traefik',
    env: 'DDEDGE_CONTAINERS_TRAEFIK',
    kind: 'boolean',
    default: 'false',
    describe: "also take names from Traefik's router rules (with --containers; traefik.http.routers.<r>.rule, Host(…))",
  },
  containersGrace: {
    flag: 'containers-grace',
    env: 'DDEDGE_CONTAINERS_GRACE',
    kind: 'duration',
    default: '10m',
    describe: "a stopped container's names kept (with --containers: how long their records stay)",
  },
  logFormat: {
    flag: 'log-format',
    env: 'DDEDGE_LOG_FORMAT',
    kind: 'enum',
    values: ['text', 'json'],
    default: 'text',
    describe: 'log format on stderr',
  },
  dnsServers: {
    flag: 'dns-server',
    env: 'DDEDGE_DNS_SERVERS',
    kind: 'string',
    multiple: true,
    describe:
      'acme: name servers asked whether a challenge is visible; zone export --complete: asked for the SOA and NS; ' +
      "HOST[:PORT] (repeatable; default: the zone's authoritative servers)",
  },
  propagationTimeout: {
    flag: 'propagation-timeout',
    env: 'DDEDGE_PROPAGATION_TIMEOUT',
    kind: 'duration',
    default: '120s',
    describe: 'acme: how long present waits for the challenge to be visible on every server',
  },
} as const satisfies Record<string, Setting>;

export type SettingName = keyof typeof SETTINGS;

/**
 * The gateway's own settings: flags of `ddedge gateway` only, read with the table above in one
 * pass (config/gateway-settings.ts). Where the agent's variable would clash in a dotenv file the
 * two share (DDEDGE_LISTEN, DDEDGE_MAX_CALLS_PER_HOUR), the gateway has its own, which wins; the
 * agent's is still read when the gateway's is not set.
 */
export const GATEWAY_SETTINGS = {
  zones: {
    flag: 'zone',
    env: 'DDEDGE_GATEWAY_ZONES',
    kind: 'domain',
    multiple: true,
    describe: 'a hosting service whose zone it serves (repeatable; variable comma-separated; required)',
  },
  keysFile: {
    flag: 'keys',
    env: 'DDEDGE_GATEWAY_KEYS_FILE',
    kind: 'path',
    credential: 'gateway-keys',
    credentialIsFile: true,
    describe: 'the keys file: TSIG keys and their grants (required)',
  },
  dnsListen: {
    flag: 'dns-listen',
    env: 'DDEDGE_GATEWAY_LISTEN',
    kind: 'string',
    multiple: true,
    default: '127.0.0.1:53',
    describe: 'ADDR:PORT where it answers DNS, UDP and TCP (repeatable; variable comma-separated)',
  },
  primaryName: {
    flag: 'primary-name',
    env: 'DDEDGE_GATEWAY_PRIMARY_NAME',
    kind: 'domain',
    describe: 'the SOA MNAME it gives (default: the host name)',
  },
  refresh: {
    flag: 'refresh',
    env: 'DDEDGE_GATEWAY_REFRESH',
    kind: 'duration',
    default: '60s',
    describe: 'how often each zone is re-read from the provider',
  },
  notify: {
    flag: 'notify',
    env: 'DDEDGE_GATEWAY_NOTIFY',
    kind: 'string',
    multiple: true,
    credential: 'gateway-notify',
    noFileFlag: true,
    describe:
      'told apart by form (repeatable; variable comma-separated): HOST[:PORT] is a secondary sent a DNS NOTIFY ' +
      'after each change; a URL (scheme://…, a secret, as for daemon --notify; also DDEDGE_NOTIFY, --notify-file, ' +
      'DDEDGE_NOTIFY_FILE, credential notify) is told of refused-update bursts and of zones changed elsewhere',
  },
  httpListen: {
    flag: 'listen',
    env: 'DDEDGE_GATEWAY_HTTP_LISTEN',
    kind: 'string',
    describe:
      'ADDR:PORT serving /healthz, /metrics and /status over HTTP (off by default; DDEDGE_LISTEN when this is not set)',
  },
  maxCallsPerHour: {
    flag: 'max-calls-per-hour',
    env: 'DDEDGE_GATEWAY_MAX_CALLS_PER_HOUR',
    kind: 'integer',
    default: '600',
    describe:
      "provider calls the gateway may make in any hour, counted apart from the agent's (DDEDGE_MAX_CALLS_PER_HOUR " +
      'when this is not set)',
  },
  httpDoorListen: {
    flag: 'http-listen',
    env: 'DDEDGE_GATEWAY_HTTP_DOOR_LISTEN',
    kind: 'string',
    multiple: true,
    describe:
      'ADDR:PORT of the HTTP door: the dyndns2 update protocol (routers, NAS boxes, ddclient, inadyn) and the ACME ' +
      'protocols httpreq/acmeproxy and acme-dns, over HTTP, HTTPS with the two below (repeatable; off by default)',
  },
  httpDoorCert: {
    flag: 'http-cert',
    env: 'DDEDGE_GATEWAY_HTTP_DOOR_CERT',
    kind: 'path',
    describe: 'PEM certificate chain: serve the HTTP door over TLS',
  },
  httpDoorKey: {
    flag: 'http-key',
    env: 'DDEDGE_GATEWAY_HTTP_DOOR_KEY',
    kind: 'path',
    describe: 'PEM private key of --http-cert',
  },
  dyndns2Listen: {
    flag: 'dyndns2-listen',
    env: 'DDEDGE_GATEWAY_DYNDNS2_LISTEN',
    kind: 'string',
    multiple: true,
    describe: 'the older name of --http-listen (the same setting)',
  },
  dyndns2Cert: {
    flag: 'dyndns2-cert',
    env: 'DDEDGE_GATEWAY_DYNDNS2_CERT',
    kind: 'path',
    describe: 'the older name of --http-cert (the same setting)',
  },
  dyndns2Key: {
    flag: 'dyndns2-key',
    env: 'DDEDGE_GATEWAY_DYNDNS2_KEY',
    kind: 'path',
    describe: 'the older name of --http-key (the same setting)',
  },
  prefixHosts: {
    flag: 'prefix-host',
    env: 'DDEDGE_GATEWAY_PREFIX_HOSTS',
    kind: 'hosts',
    multiple: true,
    describe:
      "NAME=<IPv6 interface identifier>: a host behind a router whose AAAA becomes the router's ip6lanprefix + the " +
      'identifier (repeatable)',
  },
} as const satisfies Record<string, Setting>;

/** Records a problem with one setting (where it came from, and what is wrong); loading reports them all at once. */
export type Fail = (name: SettingName, origin: string | undefined, message: string) => void;

/**
 * A secret's flag that names a file to read it from (--dyndns-key-file), as <VARIABLE>_FILE
 * does: a secret on the command line is visible to every user of the machine.
 */
export const fileFlagOf = (setting: Setting): string | undefined =>
  setting.credential && !setting.credentialIsFile && !setting.noFileFlag ? `${setting.flag}-file` : undefined;
