// `ddedge gateway --zone Z --keys FILE`: reads the keys file and every served zone (exit 2 for a
// bad file, a zone the account does not hold, a port in use), answers DNS until SIGTERM or
// SIGINT, re-reads each zone every --refresh, and reloads the keys file on SIGHUP (keeping the
// keys it had when the new file has an error).
import { readFileSync } from 'node:fs';
import { ApiClient } from '../api/client.js';
import { ConfigError } from '../runtime/errors.js';
import type { Logger } from '../runtime/log.js';
import { providerZone, type ZoneProvider } from '../zone/provider-zone.js';
import { loadKeysFile, type GatewayKeys } from './keys-file.js';
import type { DnsListener } from '../dns/listener.js';
import { startGatewayServer } from './server.js';
import { sendNotify, type NotifyTarget } from './notify.js';
import { ZoneViews } from './zone-views.js';
import { dhcidAnswers } from './dhcid-answers.js';
import { DhcidStore } from './dhcid-store.js';

/** The longest wait for updates in flight at SIGTERM: a write and its rollback, each within --timeout, fit in it by default. */
const DRAIN_MS = 60_000;

export interface GatewaySettings {
  zones: string[];
  keysFile: string;
  listen: { host: string; port: number }[];
  primaryName: string;
  refreshMs: number;
  notify: NotifyTarget[];
  api: { url: string; user: string; password: string };
  timeoutMs: number;
  stateDir: string;
  hosts: string[];
  logger: Logger;
  /** Called once every address answers, with the ports bound (port 0 picks one). */
  ready?: (addresses: string[]) => void;
  /** Resolves when the gateway should stop. */
  stopped: Promise<void>;
  onReload?: (reload: () => void) => void;
}

export async function runGateway(settings: GatewaySettings): Promise<number> {
  const { logger } = settings;
  let keys: GatewayKeys = loadKeys(settings.keysFile, logger);
  const client = new ApiClient({ url: settings.api.url, user: settings.api.user, password: settings.api.password, timeoutMs: settings.timeoutMs, logger });
  const providers = new Map<string, ZoneProvider>(settings.zones.map((z) => [z, providerZone(client, z)]));
  const providerOf = (zone: string) => providers.get(zone)!;
  // A damaged DHCID store stops the start (exit 2): read as empty, it would let any DHCP client take every name.
  const dhcid = DhcidStore.open(settings.stateDir);
  const views = new ZoneViews(
    settings.zones,
    providerOf,
    settings.primaryName,
    undefined,
    (zone, soa) => {
      for (const target of settings.notify) void sendNotify(target, soa, logger).then((ok) => ok && logger.info(`gateway: ${target.host}:${target.port} acknowledged the NOTIFY for ${zone} (serial ${soa.value.serial})`));
    },
    (zone) => dhcidAnswers([...dhcid.of(zone).values()].flat()),
  );
  // Every zone is read once before answering: a zone the account does not hold is a configuration error.
  for (const zone of settings.zones) {
    try {
      await views.refresh(zone);
    } catch (error) {
      throw new ConfigError(`--zone ${zone}: cannot read it from the provider: ${(error as Error).message}`);
    }
  }
  const servers: DnsListener[] = [];
  let stopping = false;
  const inFlight = new Set<Promise<unknown>>();
  try {
    for (const address of settings.listen) {
      try {
        servers.push(await startGatewayServer({ host: address.host, port: address.port, views, providerOf, keys: () => keys, stateDir: settings.stateDir, hosts: settings.hosts, logger, dhcid, stopping: () => stopping, inFlight }));
      } catch (error) {
        throw new ConfigError(`--dns-listen ${address.host}:${address.port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
    }
    const shown = settings.listen.map((a, i) => `${a.host.includes(':') ? `[${a.host}]` : a.host}:${servers[i]!.port}`);
    logger.info(`gateway: answering DNS for ${settings.zones.join(', ')} on ${shown.join(', ')} (UDP and TCP); ${keys.keys.size} key(s)`);
    settings.ready?.(shown);
    settings.onReload?.(() => {
      try {
        keys = loadKeys(settings.keysFile, logger);
        logger.info(`gateway: keys file reloaded; ${keys.keys.size} key(s)`);
      } catch (error) {
        logger.error(`gateway: the keys file was not reloaded, the keys loaded before stay: ${(error as Error).message}`);
      }
    });
    const timer = setInterval(() => {
      for (const zone of settings.zones) views.refresh(zone).catch((error: unknown) => logger.warn(`gateway: re-reading ${zone} failed: ${(error as Error).message}`));
    }, settings.refreshMs);
    await settings.stopped;
    clearInterval(timer);
    // Updates in flight finish and are answered (a half-made update would be left half-made); new ones are refused.
    stopping = true;
    if (inFlight.size) logger.info(`gateway: stopping; waiting for ${inFlight.size} update(s) in flight`);
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, DRAIN_MS).unref());
    await Promise.race([Promise.allSettled([...inFlight]), deadline]);
    // The answers of those updates are signed and written after they settle: let them go out.
    await new Promise((resolve) => setTimeout(resolve, 200));
    return 0;
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}

function loadKeys(path: string, logger: Logger): GatewayKeys {
  const keys = loadKeysFile(path, (p) => readFileSync(p, 'utf8'));
  for (const warning of keys.warnings) logger.warn(`gateway: ${warning}`);
  return keys;
}
