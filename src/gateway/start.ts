// The gateway's start, before any listener is open: the keys file read, the budget, the zones'
// views and the state kept across restarts (DHCID records, owners, serials, replay memory), every
// served zone read once (a zone the account does not hold is a configuration error, exit 2), and
// the batches an earlier run left unfinished closed in the journal. Every provider call goes
// through the gateway's own hourly budget (call-budget.ts), over Node's own keep-alive pool.
import type { ApiClient } from '../api/client.js';
import { service } from '../api/endpoints/service.js';
import { apiClientFrom } from '../config/api-client.js';
import { nodePoolTransport } from '../http/node-pool-transport.js';
import type { Transport } from '../http/transport.js';
import { ConfigError, DdedgeError, ExitCode, exitCodeOf } from '../lib/errors.js';
import type { Logger } from '../lib/log.js';
import { type Clock, secondsOn, systemClock } from '../lib/clock.js';
import { sharedNotifier, type Notifier } from '../notify/notifier.js';
import { othersMayWrite } from '../state/state-dir.js';
import { providerZone, type ZoneProvider } from '../zone/provider/provider-zone.js';
import { LIST_PAGE_LENGTH } from '../zone/provider/zone-listing.js';
import type { LiveRecord } from '../zone/record.js';
import { dhcidAnswers } from './dhcid/answers.js';
import { DhcidStore } from './dhcid/store.js';
import { filterFindsNames } from './dns/filter-probe.js';
import { sendNotify } from './dns/notify-secondaries.js';
import { SecondaryLog } from './dns/secondaries.js';
import { SerialStore } from './dns/serial-store.js';
import { ZoneViews } from './dns/zone-views.js';
import { reconcileUnfinished } from './journal/unfinished-batches.js';
import { closedHttpDoorNotice } from './keys/http-door-keys.js';
import { loadKeysFile, type GatewayKeys } from './keys/keys-file.js';
import { GatewayBudget } from './limits/call-budget.js';
import { OwnersLedger } from './limits/key-quotas.js';
import { RefusalBursts } from './limits/refusal-bursts.js';
import { RefusalLog } from './limits/refusal-log.js';
import { ReplayMemory } from './limits/replay-memory.js';
import type { GatewaySettings } from './run-settings.js';
import { GatewayStats } from './status/stats.js';
import { hostPort } from '../lib/host-port.js';
import { counted } from '../lib/counted.js';

/**
 * A provider connection idle this long is closed: the gateway calls in bursts (a refresh, a
 * batch), minutes apart. As long as undici, which the gateway used before, kept one.
 */
const IDLE_CONNECTION_MS = 4_000;

/** How often the replay memory is written when it changed: a crash forgets at most this much. */
const REPLAY_SAVE_MS = 2_000;

/** The gateway once started, before any listener is open: what its doors, page and refreshes share. */
export interface StartedGateway {
  /** The keys loaded last (reloadKeys replaces them). */
  keys: () => GatewayKeys;
  /** Reads the keys file again (SIGHUP); the keys loaded before stay when it has an error. */
  reloadKeys: () => void;
  budget: GatewayBudget;
  stats: GatewayStats;
  notifier?: Notifier;
  refusals: RefusalLog;
  secondaries: SecondaryLog;
  /** The transport every provider call goes through (closed at the end). */
  wire: Transport;
  views: ZoneViews;
  /** Each zone's provider for its updates (which may use the calls set aside for that zone's batch). */
  providerOf: (zone: string) => ZoneProvider;
  dhcid: DhcidStore;
  owners: OwnersLedger;
  /** One memory of the signed updates acted on, for every listener, kept across restarts. */
  replays: ReplayMemory;
  /** Saves the replay memory every REPLAY_SAVE_MS (cleared at the end). */
  saveReplays: NodeJS.Timeout;
  /** Checks once whether the provider's filter finds a zone's names (filter-probe.ts). */
  checkFilter: (zone: string, live: LiveRecord[]) => Promise<void>;
}

/**
 * The provider's zones, through the budget: refreshes read through a client of their own, each
 * zone's updates through one that may use the calls set aside for that zone's batch (and only for it).
 */
function providers(settings: GatewaySettings, budget: GatewayBudget, stats: GatewayStats, wire: Transport) {
  const clientFor = (zone?: string) =>
    apiClientFrom(settings.config, settings.logger, { transport: budget.wrap(wire, zone) });
  const reader = clientFor();
  const readers = new Map<string, ZoneProvider>(
    settings.zones.map((z) => [z, stats.watch(z, providerZone(reader, z))]),
  );
  const writers = new Map<string, ZoneProvider>(
    settings.zones.map((z) => [z, stats.watch(z, providerZone(clientFor(z), z))]),
  );
  return { reader, readerOf: (zone: string) => readers.get(zone)!, writerOf: (zone: string) => writers.get(zone)! };
}

/** The zones as served, told of each change (NOTIFY to the secondaries) and answering the DHCID records kept. */
function zoneViews(
  settings: GatewaySettings,
  readerOf: (zone: string) => ZoneProvider,
  dhcid: DhcidStore,
  secondaries: SecondaryLog,
): ZoneViews {
  const { logger } = settings;
  return new ZoneViews(
    settings.zones,
    readerOf,
    settings.primaryName,
    undefined,
    (zone, soa) => {
      for (const target of settings.notify) {
        const shown = hostPort(target.host, target.port);
        void sendNotify(target, soa, logger).then((ok) => {
          secondaries.notified(shown, zone, soa.value.serial, ok);
          if (ok) logger.info(`gateway: ${shown} acknowledged the NOTIFY for ${zone} (serial ${soa.value.serial})`);
        });
      }
    },
    (zone, names) =>
      dhcidAnswers(
        names ? names.flatMap((name) => dhcid.of(zone).get(name) ?? []) : [...dhcid.of(zone).values()].flat(),
      ),
    SerialStore.open(settings.stateDir, logger),
  );
}

export async function startGateway(settings: GatewaySettings): Promise<StartedGateway> {
  const { logger } = settings;
  for (const warning of othersMayWrite([settings.stateDir, `${settings.stateDir}/gateway`]))
    logger.warn(`gateway: ${warning}`);
  let keys: GatewayKeys = loadKeys(settings.keysFile, logger);
  const budget = new GatewayBudget(settings.stateDir, settings.maxCallsPerHour, logger);
  const stats = new GatewayStats(settings.zones);
  const notifier = settings.notifyUrls?.length ? sharedNotifier(settings.notifyUrls, logger) : undefined;
  const refusals = refusalLog(logger, notifier, settings.clock ?? systemClock);
  const secondaries = new SecondaryLog();
  const wire = nodePoolTransport({ idleMs: IDLE_CONNECTION_MS });
  const { reader, readerOf, writerOf } = providers(settings, budget, stats, wire);
  // A damaged DHCID store stops the start (exit 2): read as empty, it would let any DHCP client take every name.
  const dhcid = DhcidStore.open(settings.stateDir);
  const owners = OwnersLedger.open(settings.stateDir, logger);
  const views = zoneViews(settings, readerOf, dhcid, secondaries);
  // A zone of one page is read whole for every update anyway; past that, its filter is checked once (filter-probe.ts).
  const checkFilter = async (zone: string, live: LiveRecord[]) => {
    if (views.filterFinds.has(zone) || live.length <= LIST_PAGE_LENGTH) return;
    const finds = await filterFindsNames(readerOf(zone), zone, live, logger);
    if (finds !== undefined) views.filterFinds.set(zone, finds);
  };
  await readEveryZone(settings, views, owners, dhcid, checkFilter, reader);
  for (const warning of settings.startWarnings ?? []) logger.warn(warning);
  sayIfHttpDoorClosed(settings, keys, logger);
  warnIfRefreshesCrowdTheBudget(settings, views, logger);
  // Batches a gateway was writing when it was killed: said, and closed in the journal with what the provider holds.
  await reconcileUnfinished(settings.stateDir, settings.zones, readerOf, dhcid, logger);
  const seconds = () => secondsOn(settings.clock ?? systemClock);
  const replays = ReplayMemory.load(ReplayMemory.pathIn(settings.stateDir), seconds(), logger);
  const saveReplays = setInterval(() => replays.save(seconds(), logger), REPLAY_SAVE_MS);
  saveReplays.unref();
  const reloadKeys = () => {
    try {
      keys = loadKeys(settings.keysFile, logger);
      logger.info(`gateway: keys file reloaded; ${counted(keys.keys.size, 'key')}`);
      // A router's key added since the start would meet the closed door as one there at the start would.
      sayIfHttpDoorClosed(settings, keys, logger);
    } catch (error) {
      // Every mistake of the file, on the one line of the log.
      const mistakes = (error as Error).message.split('\n').join('; ');
      logger.error(`gateway: the keys file was not reloaded, the keys loaded before stay: ${mistakes}`);
    }
  };
  const started = {
    budget,
    stats,
    notifier,
    refusals,
    secondaries,
    wire,
    views,
    dhcid,
    owners,
    replays,
    saveReplays,
    checkFilter,
  };
  return { ...started, keys: () => keys, reloadKeys, providerOf: writerOf };
}

/** The refusals logged, and their bursts told to the --notify URLs. */
function refusalLog(logger: Logger, notifier: Notifier | undefined, clock: Clock): RefusalLog {
  const bursts = new RefusalBursts(undefined, () => clock.now());
  return new RefusalLog(
    logger,
    () => clock.now(),
    notifier &&
      ((origin, refusal) => {
        const event = bursts.note(origin, refusal);
        if (event) notifier.enqueue([event]);
      }),
  );
}

/** Every zone is read once before answering: a zone the account does not hold is a configuration error. */
async function readEveryZone(
  settings: GatewaySettings,
  views: ZoneViews,
  owners: OwnersLedger,
  dhcid: DhcidStore,
  checkFilter: StartedGateway['checkFilter'],
  reader: ApiClient,
): Promise<void> {
  for (const zone of settings.zones) {
    try {
      const live = await views.refresh(zone);
      owners.prune(zone, live, [...dhcid.of(zone).values()].flat());
      await checkFilter(zone, live);
    } catch (error) {
      // The provider out of reach (or the budget spent) is worth a restart later (exit 4); credentials
      // it rejects are exit 3, as for every command; a zone it does not hold is a configuration error (exit 2).
      if (exitCodeOf(error) === ExitCode.transient)
        throw new DdedgeError(
          `--zone ${zone}: cannot read it from the provider now: ${(error as Error).message}`,
          ExitCode.transient,
        );
      if (exitCodeOf(error) === ExitCode.auth)
        throw new DdedgeError(
          `--zone ${zone}: cannot read it from the provider: ${(error as Error).message}`,
          ExitCode.auth,
        );
      throw new ConfigError(
        `--zone ${zone}: cannot read it from the provider: ` +
          `${(error as Error).message}${await accountZonesHint(reader)}`,
      );
    }
  }
}

/**
 * Refreshes alone should leave most of the budget to updates: each takes a page of service/dnslist
 * per 1,000 records.
 */
function warnIfRefreshesCrowdTheBudget(settings: GatewaySettings, views: ZoneViews, logger: Logger): void {
  const pages = settings.zones.reduce((n, zone) => n + Math.max(1, Math.ceil(views.size(zone) / LIST_PAGE_LENGTH)), 0);
  const perHour = pages * Math.ceil(3_600_000 / settings.refreshMs);
  if (perHour > settings.maxCallsPerHour / 2) {
    const paged = pages > settings.zones.length ? ` (${pages} pages of service/dnslist each time)` : '';
    logger.warn(
      `gateway: re-reading ${counted(settings.zones.length, 'zone')} every ` +
        `${Math.round(settings.refreshMs / 1000)}s takes ` +
        `${perHour} of the ${settings.maxCallsPerHour} provider calls allowed an hour${paged}; raise --refresh or ` +
        `--max-calls-per-hour`,
    );
  }
}

/** No --http-listen: the keys shaped for the HTTP door are named once, at the start (http-door-keys.ts). */
function sayIfHttpDoorClosed(settings: GatewaySettings, keys: GatewayKeys, logger: Logger): void {
  if (settings.dyndns2) return;
  const notice = closedHttpDoorNotice(keys);
  if (notice) logger[notice.level](notice.text);
}

function loadKeys(path: string, logger: Logger): GatewayKeys {
  const keys = loadKeysFile(path);
  for (const warning of keys.warnings) logger.warn(`gateway: ${warning}`);
  return keys;
}

/**
 * The hosting services the account holds, named when a --zone is refused (a typo in a zone name
 * is the usual cause): one page of service/list, and nothing when even that fails.
 */
async function accountZonesHint(client: ApiClient): Promise<string> {
  try {
    const listed = (await client.call('service', service.list, { pageLength: 50 })) as { services: { name: string }[] };
    const names = listed.services.map((s) => s.name).filter(Boolean);
    return names.length
      ? `; the account's hosting services: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}`
      : '; the account holds no hosting service';
  } catch {
    return '';
  }
}
