import type { DyndnsKeyParam } from '../dyndns/client.js';
import type { DyndnsFormat } from '../dyndns/result.js';
import type { SourceSpec } from '../ip/sources.js';
import type { LogFormat, LogLevel } from '../log.js';

export type Via = 'auto' | 'dyndns' | 'api';

/** One validated configuration: everything below cli/ reads this, never the environment. */
export interface Config {
  /** formatFromUrl: the format came from a --dyndns-url that ended in it (…/json/). */
  dyndns: { url: string; format: DyndnsFormat; formatFromUrl?: boolean; user?: string; key?: string; keyParam: DyndnsKeyParam };
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
  allowPrivateIp: boolean;
  logLevel: LogLevel;
  logFormat: LogFormat;
  /** What happens around a cycle: hook, heartbeat, metrics. */
  edge: { onChange?: string; onChangeTimeoutMs: number; pingUrl?: string; metricsFile?: string };
}

export const hasDyndnsCredentials = (c: Config): boolean => Boolean(c.dyndns.user && c.dyndns.key);
export const hasApiCredentials = (c: Config): boolean => Boolean(c.api.user && c.api.password);
