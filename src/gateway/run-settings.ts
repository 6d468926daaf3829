// What `ddedge gateway` is started with: the command's settings as the CLI read them
// (config/gateway-settings.ts), and the hooks it is run with (ready, stopped, reload).
import type { Config } from '../config/config.js';
import type { Clock } from '../lib/clock.js';
import type { Dyndns2Settings } from '../config/gateway-settings.js';
import type { TlsFiles } from '../config/tls-files.js';
import type { ListenAddress } from '../lib/listen-address.js';
import type { Logger } from '../lib/log.js';
import type { NotifyTarget } from './dns/notify-secondaries.js';

export interface GatewaySettings {
  /** Time for the refresh loop, the drain, the replay memory and the limits: the system's unless a test gives one. */
  clock?: Clock;
  zones: string[];
  keysFile: string;
  listen: { host: string; port: number }[];
  primaryName: string;
  refreshMs: number;
  notify: NotifyTarget[];
  /** --notify URLs (a scheme://… value): told of refused-update bursts and zones changed elsewhere. */
  notifyUrls?: string[];
  /** The configuration the registrar API's clients are made from (config/api-client.ts). */
  config: Config;
  timeoutMs: number;
  stateDir: string;
  hosts: string[];
  /** --max-calls-per-hour: provider calls the gateway may make in any hour. */
  maxCallsPerHour: number;
  /** The dyndns2 door (--dyndns2-listen …); off when undefined. */
  dyndns2?: Dyndns2Settings;
  /** --allow-private-ip: the dyndns2 door accepts addresses that are not public unicast. */
  allowPrivateIp?: boolean;
  /** --listen: where /healthz, /metrics and /status are served; off when undefined. */
  httpListen?: ListenAddress;
  /** What the status page (/) needs from beyond loopback (--listen-token). */
  listenToken?: string;
  /** --listen-cert and --listen-key: --listen over TLS. */
  listenTls?: TlsFiles;
  logger: Logger;
  /** Warnings about how it was set up, said once the start is past its fatal checks (keys file, credentials, zones). */
  startWarnings?: string[];
  /** Called once every address answers, with the ports bound (port 0 picks one). */
  ready?: (addresses: string[]) => void;
  /** Resolves when the gateway should stop. */
  stopped: Promise<void>;
  /** Resolves, with the signal's name, when the gateway should stop at once: updates in flight are not waited for. */
  stoppedNow?: Promise<string>;
  onReload?: (reload: () => void) => void;
}
