import type { DyndnsKeyParam } from '../dyndns/client.js';
import type { DyndnsFormat } from '../dyndns/result.js';
import type { SourceSpec } from '../ip/sources.js';
import type { ListenAddress } from '../lib/listen-address.js';
import type { TlsFiles } from './tls-files.js';
import type { LogFormat, LogLevel } from '../lib/log.js';

type Via = 'auto' | 'dyndns' | 'api';

export interface ContainerSettings {
  /** unix:///path/to/docker.sock, or http://HOST:PORT, as given: the engine's reader judges it at the start. */
  url: string;
  /** Where the URL was given (--containers, DDEDGE_CONTAINERS, …), for its errors. */
  setting: string;
  /** --containers-traefik */
  traefik: boolean;
  /** --containers-grace */
  graceMs: number;
}

/** One validated configuration: everything below cli/ reads this, never the environment. */
export interface Config {
  /** formatFromUrl: the format came from a --dyndns-url that ended in it (…/json/). */
  dyndns: {
    url: string;
    format: DyndnsFormat;
    formatFromUrl?: boolean;
    user?: string;
    key?: string;
    keyParam: DyndnsKeyParam;
  };
  api: { url: string; user?: string; password?: string };
  hosts: string[];
  service?: string;
  via: Via;
  ip?: string;
  ipSources: SourceSpec[];
  quorum: number;
  ipv6: boolean;
  ip6?: string;
  ip6Sources: SourceSpec[];
  quorum6: number;
  stateDir: string;
  maxAgeMs: number;
  timeoutMs: number;
  intervalMs: number;
  /** ddedge health and /healthz: the last successful cycle must be younger than this. */
  healthLimitMs: number;
  /** The TTL of the agent's records (--ttl); set through the API only. Undefined: the provider's. */
  ttl?: number;
  allowPrivateIp: boolean;
  /** Provider calls update and daemon may make in any hour (dynamic DNS and API, every page and retry). */
  maxCallsPerHour: number;
  logLevel: LogLevel;
  logFormat: LogFormat;
  /** Machines behind the router: their AAAA is the detected prefix + their identifier. */
  lan: {
    /** Canonical IPv6 interface identifier by host name (hosts given as NAME=::1:2:3:4). */
    identifiers: Record<string, string>;
    prefixLength: number;
    /** Hosts that get no A record. */
    noIpv4For: string[];
  };
  /** The daemon's HTTP endpoint (--listen); off when undefined. */
  listen?: ListenAddress;
  /** What the status page and its action need from beyond loopback (--listen-token, a secret). */
  listenToken?: string;
  /** --listen over TLS (--listen-cert, --listen-key, read at start). */
  listenTls?: TlsFiles;
  /** --containers: the engine whose running containers name hosts, and how their names are read and let go. */
  containers?: ContainerSettings;
  /** Notification URLs (--notify; secrets, validated by notify/target.ts); update and daemon only. */
  notify: string[];
  /** What happens around a cycle: hook, heartbeat, metrics. */
  edge: { onChange?: string; onChangeTimeoutMs: number; pingUrl?: string; metricsFile?: string };
  /**
   * Where each credential was set (--api-user, DDEDGE_API_PASSWORD_FILE, credential api-password): messages name it so.
   */
  origins?: { dyndnsUser?: string; dyndnsKey?: string; apiUser?: string; apiPassword?: string };
  /**
   * ddedge acme: where a challenge must be visible (HOST[:PORT]; empty: the zone's authoritative servers), and for how
   * long to wait.
   */
  acme: { dnsServers: string[]; propagationTimeoutMs: number };
}

export const hasDyndnsCredentials = (c: Config): boolean => Boolean(c.dyndns.user && c.dyndns.key);
export const hasApiCredentials = (c: Config): boolean => Boolean(c.api.user && c.api.password);
