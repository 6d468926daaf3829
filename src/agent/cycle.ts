// One cycle: learn the address -> compare with the cache -> send only what changed (dynamic
// DNS first for A, the API as fallback and for AAAA) -> remember. Hosts are independent: one
// failing record does not stop the others.
import { counted } from '../lib/counted.js';
import type { ApiClient } from '../api/client.js';
import { hasApiCredentials, hasDyndnsCredentials, type Config } from '../config/config.js';
import { credentialAdvice } from '../config/credential-names.js';
import { DdedgeError, exitCodeOf, type ExitCode } from '../lib/errors.js';
import { wireTransport } from '../http/wire-transport.js';
import { canonicalAddress, recordTypeOf, type Family, type RecordType } from '../lib/address.js';
import { DetectionFailed, detectAddress } from '../ip/detect.js';
import { recordSourceAnswers } from './recent-sources.js';
import type { Logger } from '../lib/log.js';
import { outsideText } from '../lib/outside-text.js';
import { acquireLock } from '../state/lock.js';
import type { CallBudget } from '../state/budget.js';
import { removeStaleTemporaries } from '../state/state-dir.js';
import { StateSaveError } from '../state/state-save-error.js';
import { readState, recordKey, writeState, type RecordState, type State, type Via } from '../state/state.js';
import { cycleExitCode, failureKind, type Outcome } from './outcome.js';
import type { Notice } from './history-events.js';
import { observeCycle } from './history-observer.js';
import type { ProviderGate } from './provider-gate.js';
import { StoppingError, type Shutdown } from './shutdown.js';
import { registeredDomain } from '../lib/registered-domain.js';
import { joinIdentifier } from '../lib/interface-id.js';
import { hostsFor } from '../lan/planned-records.js';
import type { WantedName } from '../containers/desired-names.js';
import type { ZoneProvider } from '../zone/provider/provider-zone.js';
import type { ContainerReport } from './container-records.js';

type SendKit = typeof import('./provider-parts.js');

export interface CycleOptions {
  config: Config;
  logger: Logger;
  dryRun?: boolean;
  force?: boolean;
  now?: () => Date;
  /** A daemon's stop request: no provider call starts once it is set (see shutdown.ts). */
  shutdown?: Shutdown;
  /** A person asked for this cycle (SIGUSR1): records in their refusal backoff are tried again. */
  retryRefused?: boolean;
  /** Tests: the IPv6 interface table iface: sources read (default /proc/net/if_inet6). */
  interfaceTable?: string;
  /** The names containers give (--containers): kept as hosts of the agent, in this same cycle. */
  containers?: ContainerCycle;
}

export interface ContainerCycle {
  wanted: readonly WantedName[];
  /** A cycle for the containers' names alone: the hosts of DDEDGE_HOSTS are not checked. */
  only?: boolean;
  /** The zones the names are below (--service, else the zones of the hosts). */
  zones: readonly string[];
  /** Tests: the zone's provider (default: the registrar API's, through the cycle's gate). */
  zoneProvider?: (zone: string) => ZoneProvider;
}

export interface CycleReport {
  outcomes: Outcome[];
  exitCode: number;
  /** The state as written at the end of the cycle (unwritten in a dry run). */
  state: State;
  /** What people should be told of this cycle (address changes, lasting failures, …); none in a dry run. */
  notices?: Notice[];
  /** With --containers: every record of the containers' names, and the names that came or went. */
  containers?: ContainerReport;
}

/** `prefix`: set for a host behind the router, whose address is that prefix + its identifier. */
type Target =
  | { kind: 'address'; address: string; prefix?: string }
  | { kind: 'server' }
  | { kind: 'unknown'; error: unknown };

interface Sent {
  via: Via;
  /** The provider's entry that holds the record, when the API named it. */
  entity?: RecordState['entity'];
  changed?: boolean;
  /** The address the provider reports holding (needed with the `server` source). */
  address?: string;
}

export async function runCycle(options: CycleOptions): Promise<CycleReport> {
  const cycle = new Cycle(options);
  try {
    return await cycle.run();
  } finally {
    await cycle.close();
  }
}

class Cycle {
  private readonly config: Config;
  private readonly logger: Logger;
  private readonly now: () => Date;
  private api?: Promise<ApiClient>;
  private state!: State;
  /** Every provider call goes through it (budget, stop); see provider-gate.ts. */
  private gate!: ProviderGate;
  private budget?: CallBudget;
  /** Loaded (with the budget and the gate made) before the first call or backoff check; see provider-parts.ts. */
  private kit?: Promise<SendKit>;
  private persist: () => void = () => undefined;
  private budgetLogged = false;
  private readonly targets = new Map<Family, Promise<Target>>();

  constructor(private readonly options: CycleOptions) {
    this.config = options.config;
    this.logger = options.logger;
    this.now = options.now ?? (() => new Date());
  }

  async run(): Promise<CycleReport> {
    // A dry run writes nothing, so it needs no lock and cannot disturb a running cycle.
    const lock = this.options.dryRun ? undefined : acquireLock(this.config.stateDir);
    try {
      const dir = this.config.stateDir;
      // Only the holder of the lock sets a damaged file aside: it writes the state next.
      const loaded = readState(dir, lock !== undefined);
      if (loaded.damage) this.logger.warn(loaded.damage);
      if (lock) {
        const removed = removeStaleTemporaries(dir, 'state.json');
        if (removed.length)
          this.logger.info(
            `removed ${counted(removed.length, 'temporary file')} left in ${dir} by a writer that was stopped: ` +
              `${removed.join(', ')}`,
          );
      }
      this.state = loaded.state;
      // After a cycle with no failure, the history ends in no failure: a cycle that finds every
      // record unchanged then has nothing to add to it, and does not read it (the common cycle).
      const cleanBefore = loaded.state.lastCycleExitCode === 0;
      // Reservations are written before each block of calls; a dry run writes nothing.
      this.persist = () => (lock ? this.save('no request was sent') : undefined);
      const outcomes: Outcome[] = [];
      for (const family of [4, 6] as const) {
        const planned = this.options.containers?.only ? [] : hostsFor(this.config, family);
        if (!planned.length) continue;
        const target = await this.targetOnce(family);
        // Every host behind the router moves with the prefix, in this same cycle.
        for (const { host, identifier } of planned)
          outcomes.push(
            await this.handle(host, recordTypeOf(family), targetOf(target, identifier, this.config.lan.prefixLength)),
          );
      }
      const containers = this.options.containers ? await this.containerNames(this.options.containers) : undefined;
      if (containers) outcomes.push(...containers.outcomes);
      // A CNAME and a deletion are records of the cycle too; an A or AAAA is in the outcomes already.
      const others = (containers?.records ?? []).filter((r) => r.type === 'CNAME' || r.action === 'deleted');
      let exitCode: number = cycleExitCode([...outcomes, ...others]);
      if (!this.options.dryRun) {
        const at = this.now().toISOString();
        this.state.lastCycleAt = at;
        this.state.lastCycleExitCode = exitCode;
        if (exitCode === 0) this.state.lastSuccessAt = at;
        if (outcomes.some((o) => o.action === 'updated')) this.state.lastChangeAt = at;
        for (const o of outcomes.filter((x) => x.action === 'failed')) {
          const kind = failureKind(o.error);
          this.state.failures = { ...this.state.failures, [kind]: (this.state.failures?.[kind] ?? 0) + 1 };
        }
        // A budget never made reserved nothing; settling it would only copy the counts.
        if (this.budget) this.budget.settle();
        else this.state.calls = { ...this.state.calls };
        const updated = outcomes.filter((o) => o.action === 'updated').map((o) => `${o.host} ${o.type}`);
        try {
          this.save(
            updated.length
              ? `the provider was updated (${updated.join(', ')}), but the next cycle will send it again`
              : 'nothing else is affected',
          );
        } catch (error) {
          // The records were sent: report them as they are, and the failure to remember them.
          this.logger.error((error as Error).message);
          if (exitCode === 0) exitCode = (error as StateSaveError).exitCode ?? 4;
          this.state.lastCycleExitCode = exitCode;
        }
      }
      const nothingToRecord =
        cleanBefore && outcomes.every((o) => o.action === 'unchanged') && !containers?.changes.length;
      const notices =
        this.options.dryRun || nothingToRecord
          ? []
          : observeCycle(this.config.stateDir, outcomes, this.now(), this.logger, containers?.changes);
      return { outcomes, exitCode, state: this.state, notices, ...(containers ? { containers } : {}) };
    } finally {
      lock?.release();
    }
  }

  /** The address of each family once per cycle, whoever asks (the hosts, the containers' names). */
  private targetOnce(family: Family): Promise<Target> {
    const known = this.targets.get(family) ?? this.target(family);
    this.targets.set(family, known);
    return known;
  }

  /** The containers' names kept: their records through the zone layer, with this cycle's address, gate and cache. */
  private async containerNames(cycle: ContainerCycle): Promise<ContainerReport> {
    const addresses = new Map<Family, { address?: string; error?: unknown }>();
    const families: Family[] = this.config.ipv6 ? [4, 6] : [4];
    if (cycle.wanted.some((w) => !w.target))
      for (const family of families) addresses.set(family, await this.addressOf(family));
    const { keepContainerNames } = await import('./container-records.js');
    return keepContainerNames(
      {
        config: this.config,
        logger: this.logger,
        now: this.now,
        state: this.state,
        dryRun: Boolean(this.options.dryRun),
        zones: cycle.zones,
        addresses,
        isCurrent: (record, address) => this.isCurrent(record, address),
        callsLeft: () => this.budget?.available(),
        retryRefused: Boolean(this.options.force || this.options.retryRefused),
        keptForHosts: callsKeptForHosts(this.config.hosts.length * families.length, this.config.maxCallsPerHour),
        zoneProvider: async (zone) => {
          if (cycle.zoneProvider) return cycle.zoneProvider(zone);
          const client = await this.apiClient();
          const { providerZone } = await import('../zone/provider/provider-zone.js');
          return providerZone(client, zone);
        },
      },
      cycle.wanted,
    );
  }

  /** The address the containers' names get: the detected one (asked of the API with the `server` source). */
  private async addressOf(family: Family): Promise<{ address?: string; error?: unknown }> {
    const target = await this.targetOnce(family);
    if (target.kind === 'address') return { address: target.address };
    if (target.kind === 'unknown') return { error: target.error };
    try {
      const { callerAddress } = await import('./via-api.js');
      return { address: await callerAddress(await this.apiClient()) };
    } catch (error) {
      return { error };
    }
  }

  /** Writes the state; a failure (disk full) is a StateSaveError saying what it means. */
  private save(consequence: string): void {
    try {
      writeState(this.config.stateDir, this.state);
    } catch (error) {
      if (error instanceof DdedgeError) throw error;
      throw new StateSaveError(this.config.stateDir, error, consequence);
    }
  }

  async close(): Promise<void> {
    if (this.api) await (await this.api).close();
  }

  /** The send path's modules, and the budget and gate of this cycle, made once. */
  private sendKit(): Promise<SendKit> {
    this.kit ??= import('./provider-parts.js').then((kit) => {
      this.budget = new kit.CallBudget(this.state, this.config.maxCallsPerHour, this.now, this.persist);
      this.gate = new kit.ProviderGate(this.budget, this.options.shutdown);
      return kit;
    });
    return this.kit;
  }

  private apiClient(): Promise<ApiClient> {
    // The API code (and undici) is loaded only by cycles that use it.
    // Its transport is the gate's: every API call (pages, retries, whatever asks) is counted.
    this.api ??= this.sendKit()
      .then(() => import('./via-api.js'))
      .then(({ apiClientFrom, undiciTransport }) =>
        apiClientFrom(this.config, this.logger, { transport: this.gate.wrap(undiciTransport()) }),
      );
    return this.api;
  }

  private usesApiFor(type: RecordType): boolean {
    // Dynamic DNS cannot set a TTL: with --ttl every record goes through the API (the loader
    // has checked that its credentials are there).
    return (
      type === 'AAAA' ||
      this.config.via === 'api' ||
      this.config.ttl !== undefined ||
      (this.config.via === 'auto' && !hasDyndnsCredentials(this.config))
    );
  }

  private async target(family: Family): Promise<Target> {
    const given = family === 4 ? this.config.ip : this.config.ip6;
    if (given) return { kind: 'address', address: given };
    const sources = family === 4 ? this.config.ipSources : this.config.ip6Sources;
    try {
      if (sources[0]?.kind === 'server') {
        if (!this.usesApiFor(recordTypeOf(family))) return { kind: 'server' };
        const { callerAddress } = await import('./via-api.js');
        return { kind: 'address', address: await callerAddress(await this.apiClient()) };
      }
      const detection = await detectAddress({
        family,
        sources,
        quorum: family === 4 ? this.config.quorum : this.config.quorum6,
        timeoutMs: this.config.timeoutMs,
        allowPrivate: this.config.allowPrivateIp,
        logger: this.logger,
        interfaceTable: this.options.interfaceTable,
      });
      this.logger.debug(`IPv${family} address is ${detection.address}`, {
        sources: detection.answers.map((a) => a.source).join(','),
      });
      recordSourceAnswers(family, detection.answers);
      return { kind: 'address', address: detection.address };
    } catch (error) {
      if (error instanceof DetectionFailed) recordSourceAnswers(family, error.answers);
      this.logger.error((error as Error).message);
      return { kind: 'unknown', error };
    }
  }

  private async handle(host: string, type: RecordType, target: Target): Promise<Outcome> {
    const key = recordKey(host, type);
    const record: RecordState = this.state.records[key] ?? { host, type };
    if (target.kind === 'unknown') {
      return {
        host,
        type,
        address: '-',
        action: 'failed',
        via: 'cache',
        message: (target.error as Error).message,
        error: target.error,
      };
    }
    const wanted = target.kind === 'address' ? target.address : undefined;
    const lan = target.kind === 'address' && target.prefix ? { prefix: target.prefix } : {};
    if (wanted && this.isCurrent(record, wanted)) {
      return {
        host,
        type,
        address: wanted,
        action: 'unchanged',
        via: 'cache',
        message: `sent ${record.sentAt} via ${record.via}; nothing to do`,
        ...lan,
      };
    }
    const notSent = await this.notSent(host, type, record, wanted, lan);
    if (notSent) return notSent;
    try {
      return await this.sendRecord(key, host, type, record, wanted, lan);
    } catch (error) {
      return this.failedSend(error, key, host, type, record, wanted, lan);
    }
  }

  /** The outcome of a record not sent this cycle: held by its backoff, ddedge stopping, or --dry-run. */
  private async notSent(
    host: string,
    type: RecordType,
    record: RecordState,
    wanted: string | undefined,
    lan: { prefix?: string },
  ): Promise<Outcome | undefined> {
    const kitForBackoff =
      record.backoff && !this.options.force && !this.options.retryRefused ? await this.sendKit() : undefined;
    const held = kitForBackoff
      ? kitForBackoff.activeBackoff(
          record.backoff,
          kitForBackoff.recordFingerprint(this.config, host, type),
          this.now(),
        )
      : undefined;
    if (held) {
      const message =
        `not sent: the provider refused it ${counted(held.failures, 'time')} ` +
        `(${record.lastError ?? 'refused'}); next attempt after ${held.until} (--force tries now)`;
      // Said as a refusal sent now is: a bare "failed" leaves the user nothing to go on.
      this.logger.error(`${host} ${type}: ${message}`);
      return {
        host,
        type,
        address: wanted ?? '(server)',
        action: 'failed',
        via: 'cache',
        message,
        error: new DdedgeError(message, held.exitCode as ExitCode),
      };
    }
    if (this.options.shutdown?.stopping && !this.options.dryRun) {
      const error = new StoppingError('not sent: ddedge is stopping');
      return {
        host,
        type,
        address: wanted ?? '(server)',
        action: 'failed',
        via: 'cache',
        message: error.message,
        error,
      };
    }
    if (this.options.dryRun) {
      const was = record.address ? `the cache holds ${record.address}` : 'not in the cache';
      return {
        host,
        type,
        address: wanted ?? '(server)',
        action: 'would-update',
        via: 'cache',
        message: `would send (${was})`,
        ...lan,
      };
    }
    return undefined;
  }

  /** Sends the record and remembers what the provider now holds. */
  private async sendRecord(
    key: string,
    host: string,
    type: RecordType,
    record: RecordState,
    wanted: string | undefined,
    lan: { prefix?: string },
  ): Promise<Outcome> {
    const sent = await this.send(host, type, wanted, record);
    const reported = sent.address === undefined ? undefined : canonicalAddress(sent.address);
    if (wanted && reported && reported !== wanted) {
      // Remembering the provider's answer would send the same update every cycle.
      this.logger.warn(
        `the provider reports ${host} ${type} at ${reported} after ddedge sent ${wanted}; remembering ${wanted} ` +
          `(it is sent again after --max-age or when the address changes)`,
      );
    }
    const address = wanted ?? reported ?? '(server)';
    const ttl = this.config.ttl === undefined ? {} : { ttl: this.config.ttl };
    this.state.records[key] = {
      host,
      type,
      address,
      sentAt: this.now().toISOString(),
      via: sent.via,
      ...lan,
      ...ttl,
      ...(sent.entity ? { entity: sent.entity } : {}),
    };
    const changed = sent.changed !== false;
    const message =
      (changed ? `set to ${address}` : `the provider already held ${address}`) +
      (lan.prefix ? ` (prefix ${lan.prefix})` : '');
    this.logger.info(`${host} ${type} ${message} via ${sent.via}`);
    return {
      host,
      type,
      address,
      action: changed ? 'updated' : 'unchanged',
      via: sent.via,
      message,
      previous: record.address,
      ...lan,
    };
  }

  /** A send that failed: said (a spent budget once per cycle), kept in the state, and backed off after a refusal. */
  private async failedSend(
    error: unknown,
    key: string,
    host: string,
    type: RecordType,
    record: RecordState,
    wanted: string | undefined,
    lan: { prefix?: string },
  ): Promise<Outcome> {
    const { BudgetSpentError, isGateRefusal, isRefusal, nextBackoff, recordFingerprint } = await this.sendKit();
    // Redacted, escaped and bounded: the message goes to the state file, --json and the log.
    const message = outsideText(
      error instanceof DdedgeError ? error.message : `internal error: ${(error as Error).stack ?? error}`,
      2000,
    );
    // A spent budget is said once per cycle, not once for each of 2,000 hosts.
    if (!(error instanceof BudgetSpentError) || !this.budgetLogged) this.logger.error(`${host} ${type}: ${message}`);
    if (error instanceof BudgetSpentError) this.budgetLogged = true;
    const code = exitCodeOf(error);
    const backoff =
      isRefusal(code) && !isGateRefusal(error)
        ? nextBackoff(record.backoff, recordFingerprint(this.config, host, type), code, this.now())
        : record.backoff;
    if (backoff !== record.backoff)
      this.logger.info(
        `${host} ${type}: no new attempt before ${backoff!.until} unless the configuration changes (refusal ` +
          `${backoff!.failures} in a row)`,
      );
    // The entry remembered may be what was refused: the next send lists the zone.
    const { entity: _entity, ...kept } = record;
    this.state.records[key] = {
      ...kept,
      lastError: message,
      lastErrorAt: this.now().toISOString(),
      ...(backoff ? { backoff } : {}),
    };
    return {
      host,
      type,
      address: wanted ?? '(server)',
      action: 'failed',
      via: this.usesApiFor(type) ? 'api' : 'dyndns',
      message,
      error,
      ...lan,
    };
  }

  private isCurrent(record: RecordState, address: string): boolean {
    if (this.options.force || record.lastError || record.address !== address || !record.sentAt) return false;
    // A TTL asked for since the last send (or changed) is sent now, not after --max-age.
    if (this.config.ttl !== undefined && record.ttl !== this.config.ttl) return false;
    const age = this.now().getTime() - Date.parse(record.sentAt);
    return age >= 0 && age < this.config.maxAgeMs;
  }

  private async send(host: string, type: RecordType, address: string | undefined, record: RecordState): Promise<Sent> {
    if (this.usesApiFor(type)) return this.sendViaApi(host, type, address!, record);
    const { sendDyndnsUpdate, DyndnsError, isGateRefusal } = await this.sendKit();
    try {
      const transport = this.gate.wrap(wireTransport);
      const authAdvice = credentialAdvice(this.config, 'dyndns');
      const settings = {
        ...this.config.dyndns,
        user: this.config.dyndns.user!,
        key: this.config.dyndns.key!,
        timeoutMs: this.config.timeoutMs,
        transport,
        authAdvice,
      };
      const result = await sendDyndnsUpdate(settings, host, address ?? '', this.logger);
      return { via: 'dyndns', changed: result.changed, address: result.address };
    } catch (error) {
      if (
        this.config.via !== 'auto' ||
        !hasApiCredentials(this.config) ||
        address === undefined ||
        isGateRefusal(error)
      )
        throw withCreateHint(error, this.config, DyndnsError);
      if (error instanceof DyndnsError && error.kind === 'auth') {
        this.logger.warn(
          `the dynamic DNS key was rejected for ${host}; fix DDEDGE_DYNDNS_KEY (or DDEDGE_DYNDNS_USER). Using the ` +
            `registrar API instead`,
        );
      } else {
        this.logger.warn(`dynamic DNS failed for ${host} (${(error as Error).message}); trying the registrar API`);
      }
      return this.sendViaApi(host, type, address, record);
    }
  }

  private async sendViaApi(host: string, type: RecordType, address: string, record: RecordState): Promise<Sent> {
    const { updateRecordViaApi } = await import('./via-api.js');
    const zone = this.config.service ?? registeredDomain(host);
    // The entry remembered is written without a list only for a change ddedge knows is one (another address or
    // TTL): a send of what the state already holds (--max-age, --force) reads what the provider holds first.
    const knownChange = record.address !== address || record.ttl !== this.config.ttl;
    const result = await updateRecordViaApi(
      await this.apiClient(),
      zone,
      host,
      type,
      address,
      this.logger,
      this.config.ttl,
      knownChange ? record.entity : undefined,
    );
    return { via: 'api', changed: result.changed, ...(result.entity ? { entity: result.entity } : {}) };
  }
}

/**
 * Dynamic DNS changes records, it cannot create one: a host missing from the zone is refused.
 * The API can create it, which a user without API credentials (or with --via dyndns) is told.
 */
function withCreateHint(
  error: unknown,
  config: Config,
  DyndnsError: typeof import('../dyndns/client.js').DyndnsError,
): unknown {
  if (
    !(error instanceof DyndnsError) ||
    error.kind !== 'refused' ||
    !error.messages.some((m) => /not found|nohost|no such host|unknown host/i.test(m))
  )
    return error;
  const hint = hasApiCredentials(config)
    ? 'dynamic DNS cannot create a record; with --via auto or api, ddedge creates it through the registrar API'
    : 'dynamic DNS cannot create a record; with registrar API credentials (DDEDGE_API_USER and ' +
      'DDEDGE_API_PASSWORD_FILE), ddedge creates it';
  return new DyndnsError(error.kind, `${error.message}; ${hint}`, error.messages);
}

/** The address of one host: the detected one, or for a host behind the router its prefix + identifier. */
function targetOf(target: Target, identifier: string | undefined, prefixLength: number): Target {
  if (!identifier || target.kind !== 'address') return target;
  return { kind: 'address', ...joinIdentifier(target.address, prefixLength, identifier) };
}

/**
 * The calls of the hour the containers' names leave for the hosts of DDEDGE_HOSTS: one per record and a listing,
 * so that labels (anyone's who can start a container) never spend what the agent's own hosts need; at most half
 * the budget.
 */
function callsKeptForHosts(records: number, limit: number): number {
  return records ? Math.min(records + 1, Math.floor(limit / 2)) : 0;
}
