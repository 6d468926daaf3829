// The records of the names containers give, kept within an agent's cycle: the same address,
// record types, cache, call budget and exit codes as DDEDGE_HOSTS, written through the zone
// layer. A name whose records are current costs no call; otherwise the zone is listed once for
// every name of the cycle, and each record is created, updated or deleted by one call. What a
// name held before a container gave it is never deleted; a record ddedge created is written down
// (containers.json) before the call that creates it, and only such records are deleted, once the
// name is let go (its grace over, no running container giving it).
import type { WantedName } from '../containers/desired-names.js';
import type { Config } from '../config/config.js';
import { counted } from '../lib/counted.js';
import { DdedgeError, exitCodeOf, ExitCode } from '../lib/errors.js';
import { activeBackoff, isRefusal, nextBackoff } from '../state/backoff.js';
import type { Family, RecordType } from '../lib/address.js';
import type { Logger } from '../lib/log.js';
import { below } from '../lib/names.js';
import { outsideText } from '../lib/outside-text.js';
import { recordKey, type RecordState, type State } from '../state/state.js';
import {
  readContainerNames,
  writeContainerNames,
  type ContainerName,
  type ContainerNamesFile,
} from '../state/container-names.js';
import type { ZoneProvider } from '../zone/provider/provider-zone.js';
import type { LiveRecord } from '../zone/record.js';
import type { Outcome } from './outcome.js';

export type ContainerRecordType = RecordType | 'CNAME';

/** One record of a container's name in a cycle. */
export interface NameOutcome {
  host: string;
  type: ContainerRecordType;
  value: string;
  action: Outcome['action'] | 'deleted' | 'left';
  message: string;
  error?: unknown;
}

/** A name that came or went in this cycle, with the containers that gave it. */
export interface NameChange {
  name: string;
  event: 'added' | 'removed';
  containers: string[];
  target?: string;
}

export interface ContainerPhase {
  config: Config;
  logger: Logger;
  now: () => Date;
  state: State;
  dryRun: boolean;
  /** The zones the names are below (--service, else the zones of the hosts). */
  zones: readonly string[];
  /** The agent's address by family, or why it is unknown. */
  addresses: Map<Family, { address?: string; error?: unknown }>;
  isCurrent: (record: RecordState, address: string) => boolean;
  /** Calls the hour's budget still allows (undefined before the budget is loaded: no call made yet). */
  callsLeft?: () => number | undefined;
  /** A person asked (--force, SIGUSR1): names in their refusal backoff are tried again. */
  retryRefused?: boolean;
  /** Calls of the hour the names never spend: kept for the hosts of DDEDGE_HOSTS. */
  keptForHosts?: number;
  /** The zone's provider (its calls counted by the cycle's gate). */
  zoneProvider: (zone: string) => Promise<ZoneProvider>;
}

export interface ContainerReport {
  /** A and AAAA, as the cycle's own outcomes. */
  outcomes: Outcome[];
  /** Every record of every name (CNAMEs and deletions included). */
  records: NameOutcome[];
  changes: NameChange[];
}

interface Work {
  entry: ContainerName;
  type: ContainerRecordType;
  value: string;
}

export async function keepContainerNames(
  phase: ContainerPhase,
  wanted: readonly WantedName[],
): Promise<ContainerReport> {
  return new ContainerRecords(phase, wanted).run();
}

class ContainerRecords {
  private file!: ContainerNamesFile;
  private readonly report: ContainerReport = { outcomes: [], records: [], changes: [] };
  private readonly at: string;

  constructor(
    private readonly phase: ContainerPhase,
    private readonly wanted: readonly WantedName[],
  ) {
    this.at = phase.now().toISOString();
  }

  async run(): Promise<ContainerReport> {
    const { dryRun, config, logger } = this.phase;
    const loaded = readContainerNames(config.stateDir, !dryRun);
    if (loaded.damage) logger.warn(loaded.damage);
    this.file = loaded.file;
    const original = JSON.stringify(loaded.file);
    const work = takenInTurn(this.wanted).flatMap((w) => this.workFor(this.entryOf(w), w));
    const wantedNames = new Set(this.wanted.map((w) => w.name));
    const gone = this.file.names.filter((n) => !wantedNames.has(n.name));
    if (dryRun) {
      for (const w of work) this.record(w.entry.name, w.type, w.value, 'would-update', 'would send');
      return this.report;
    }
    if (work.length || gone.length) {
      // Written before any call: a state directory that cannot be written stops the phase first.
      this.save();
      await this.write(work, gone);
    }
    // A cycle that changed nothing (the usual one) writes nothing.
    if (JSON.stringify(this.file) !== original) this.save();
    return this.report;
  }

  /** The name's entry in the file, made (and said to have come) when new. */
  private entryOf(w: WantedName): ContainerName {
    let entry = this.file.names.find((n) => n.name === w.name);
    if (!entry) {
      entry = { name: w.name, containers: [], since: this.at };
      if (!this.phase.dryRun) this.file.names.push(entry);
      this.report.changes.push({ name: w.name, event: 'added', containers: w.containers, ...target(w) });
      this.phase.logger.info(
        `${w.name}: given by ${w.containers.join(', ')}${w.target ? ` (CNAME to ${w.target})` : ''}`,
      );
    }
    entry.containers = [...w.containers];
    // A name that changes kind: what the cache held of the other kind is no longer what the zone should hold.
    if ((entry.target ?? '') !== (w.target ?? '')) {
      delete entry.cname;
      for (const type of ['A', 'AAAA'] as const) delete this.phase.state.records[recordKey(w.name, type)];
    }
    if (w.target) entry.target = w.target;
    else delete entry.target;
    if (w.heldUntil !== undefined) entry.heldUntil = new Date(w.heldUntil).toISOString();
    else delete entry.heldUntil;
    return entry;
  }

  /** The records of one name that are not current (those that are give their outcome now). */
  private workFor(entry: ContainerName, w: WantedName): Work[] {
    const held = this.phase.retryRefused ? undefined : activeBackoff(entry.backoff, requestOf(w), this.phase.now());
    if (held) {
      const message =
        `not sent: the provider refused it ${counted(held.failures, 'time')} ` +
        `(${entry.lastError ?? 'refused'}); next attempt after ${held.until} (--force tries now)`;
      const types: ContainerRecordType[] = w.target
        ? ['CNAME']
        : [...this.phase.addresses.keys()].map((family) => (family === 4 ? 'A' : 'AAAA'));
      const error = new DdedgeError(message, held.exitCode as ExitCode);
      for (const type of types) this.record(w.name, type, w.target ?? '-', 'failed', message, error);
      return [];
    }
    if (w.target) {
      const { cname } = entry;
      if (cname?.value === w.target && this.fresh(cname.sentAt)) {
        this.record(w.name, 'CNAME', w.target, 'unchanged', `sent ${cname.sentAt}; nothing to do`);
        return [];
      }
      return [{ entry, type: 'CNAME', value: w.target }];
    }
    const work: Work[] = [];
    for (const [family, known] of this.phase.addresses) {
      const type: RecordType = family === 4 ? 'A' : 'AAAA';
      if (known.address === undefined) {
        this.record(w.name, type, '-', 'failed', (known.error as Error).message, known.error);
        continue;
      }
      const cached = this.phase.state.records[recordKey(w.name, type)];
      if (cached && this.phase.isCurrent(cached, known.address))
        this.record(w.name, type, known.address, 'unchanged', `sent ${cached.sentAt} via ${cached.via}; nothing to do`);
      else work.push({ entry, type, value: known.address });
    }
    return work;
  }

  private fresh(sentAt: string): boolean {
    const age = this.phase.now().getTime() - Date.parse(sentAt);
    return age >= 0 && age < this.phase.config.maxAgeMs;
  }

  /** One listing per zone, then each record's one call; a zone that cannot be listed fails its names. */
  private async write(work: Work[], gone: ContainerName[]): Promise<void> {
    const byZone = new Map<string, { work: Work[]; gone: ContainerName[] }>();
    const group = (name: string) => {
      const zone = this.zoneOf(name);
      const g = byZone.get(zone) ?? { work: [], gone: [] };
      byZone.set(zone, g);
      return g;
    };
    for (const w of work) group(w.entry.name).work.push(w);
    for (const n of gone) group(n.name).gone.push(n);
    for (const [zone, g] of byZone) {
      let live: LiveRecord[];
      let provider: ZoneProvider;
      try {
        provider = await this.phase.zoneProvider(zone);
        this.mayCall();
        live = await provider.list();
      } catch (error) {
        this.phase.logger.error(`${zone}: the zone could not be listed: ${(error as Error).message}`);
        for (const w of g.work) this.fail(w, error);
        continue;
      }
      for (const w of g.work) await this.keep(provider, live, w);
      for (const n of g.gone) await this.letGo(provider, live, n);
    }
  }

  private zoneOf(name: string): string {
    const zones = this.phase.zones.filter((z) => below(name, z));
    return zones.sort((a, b) => b.length - a.length)[0] ?? this.phase.zones[0] ?? name;
  }

  /** One record made current: left, updated or created (written down first), or refused beside a CNAME. */
  private async keep(provider: ZoneProvider, live: LiveRecord[], w: Work): Promise<void> {
    const { name } = w.entry;
    const here = live.filter((r) => r.name === name);
    const owned = (r: LiveRecord) => this.owns(r);
    // Known from the first cycle that met the name: whatever was there before a container gave it stays.
    if (w.entry.heldBefore === undefined && !this.ownsAny(name)) {
      if (here.length) {
        w.entry.heldBefore = true;
        this.phase.logger.info(`${name} held records before a container gave it: they are updated, never deleted`);
      }
    }
    const clash =
      w.type === 'CNAME'
        ? here.find((r) => r.type !== 'CNAME' && !owned(r))
        : here.find((r) => r.type === 'CNAME' && !owned(r));
    if (clash) return this.refuse(w, clash.type);
    try {
      for (const mine of here.filter(
        (r) => owned(r) && r.type !== w.type && (w.type === 'CNAME' || r.type === 'CNAME'),
      )) {
        await this.deleteOwned(provider, mine);
        live.splice(live.indexOf(mine), 1);
      }
      const same = here.filter((r) => r.type === w.type);
      if (same.some((r) => r.value === w.value)) return this.kept(w, false);
      this.mayCall();
      const entry = same[0];
      const ttl = this.phase.config.ttl === undefined ? {} : { ttl: this.phase.config.ttl };
      const record = { name, type: w.type, value: w.value, ...ttl };
      if (entry) {
        // An own record keeps being owned whichever value a crash leaves it with: both are written down first.
        const mine = this.owns(entry);
        if (mine) this.writeDown(name, w.type, w.value);
        await provider.update(entry.entityID, record);
        if (mine) this.forget(entry);
      } else {
        // Created by ddedge, even beside records made elsewhere: deleted when the name goes, those left.
        this.writeDown(name, w.type, w.value);
        await provider.create(record);
      }
      this.kept(w, true);
    } catch (error) {
      this.fail(w, error);
    }
  }

  /** Refuses a call that would spend what is kept for the hosts of DDEDGE_HOSTS. */
  private mayCall(): void {
    const kept = this.phase.keptForHosts ?? 0;
    const left = this.phase.callsLeft?.();
    if (kept === 0 || left === undefined || left > kept) return;
    throw new DdedgeError(
      `not sent: the last ${kept} provider calls of the hour are kept for the hosts of DDEDGE_HOSTS ` +
        '(--max-calls-per-hour)',
      ExitCode.transient,
    );
  }

  private owns(r: { name: string; type: string; value: string }): boolean {
    return this.file.owned.some((o) => o.name === r.name && o.type === r.type && o.value === r.value);
  }

  private ownsAny(name: string): boolean {
    return this.file.owned.some((o) => o.name === name);
  }

  /** A record written down as ddedge's, in the file, before the call that makes it. */
  private writeDown(name: string, type: string, value: string): void {
    if (this.owns({ name, type, value })) return;
    this.file.owned.push({ name, type, value, createdAt: this.at });
    this.save();
  }

  private forget(r: { name: string; type: string; value: string }): void {
    this.file.owned = this.file.owned.filter((o) => !(o.name === r.name && o.type === r.type && o.value === r.value));
  }

  private async deleteOwned(provider: ZoneProvider, r: LiveRecord): Promise<void> {
    this.mayCall();
    await provider.delete(r.entityID);
    this.forget(r);
    this.record(r.name, r.type as ContainerRecordType, r.value, 'deleted', 'deleted (its name now has another type)');
  }

  /** A name let go: the records ddedge created for it deleted, anything else left as it was. */
  private async letGo(provider: ZoneProvider, live: LiveRecord[], n: ContainerName): Promise<void> {
    // A name the agent now keeps through DDEDGE_HOSTS: its records are the host's from now on.
    const kept = this.phase.config.hosts.includes(n.name);
    const mine = kept ? [] : live.filter((r) => r.name === n.name && this.owns(r));
    try {
      for (const r of mine) {
        this.mayCall();
        await provider.delete(r.entityID);
        this.forget(r);
        this.record(n.name, r.type as ContainerRecordType, r.value, 'deleted', 'deleted: no container gives it');
      }
    } catch (error) {
      const message = `not deleted (${(error as Error).message}); tried again next cycle`;
      this.phase.logger.error(`${n.name}: ${message}`);
      this.record(n.name, (mine[0]?.type ?? 'A') as ContainerRecordType, '-', 'failed', message, error);
      return;
    }
    const left = live.filter((r) => r.name === n.name && !this.owns(r) && !mine.includes(r));
    if (left.length)
      this.phase.logger.info(`${n.name}: no container gives it; its records made elsewhere are left as they are`);
    this.file.owned = this.file.owned.filter((o) => o.name !== n.name);
    this.file.names = this.file.names.filter((x) => x !== n);
    if (kept) this.phase.logger.info(`${n.name}: now a host of DDEDGE_HOSTS; its records stay, kept as the host's`);
    else for (const type of ['A', 'AAAA'] as const) delete this.phase.state.records[recordKey(n.name, type)];
    this.report.changes.push({ name: n.name, event: 'removed', containers: n.containers, ...target(n) });
    this.phase.logger.info(`${n.name}: let go (given by ${n.containers.join(', ') || 'no container'})`);
  }

  private kept(w: Work, changed: boolean): void {
    const { name } = w.entry;
    delete w.entry.backoff;
    delete w.entry.lastError;
    const sentAt = this.at;
    let previous: string | undefined;
    if (w.type === 'CNAME') {
      previous = w.entry.cname?.value;
      w.entry.cname = { value: w.value, sentAt };
    } else {
      const key = recordKey(name, w.type);
      previous = this.phase.state.records[key]?.address;
      const ttl = this.phase.config.ttl === undefined ? {} : { ttl: this.phase.config.ttl };
      this.phase.state.records[key] = { host: name, type: w.type, address: w.value, sentAt, via: 'api', ...ttl };
    }
    if (changed) this.phase.logger.info(`${name} ${w.type} set to ${w.value} via api`);
    const message = changed ? `set to ${w.value}` : `the provider already held ${w.value}`;
    this.record(name, w.type, w.value, changed ? 'updated' : 'unchanged', message, undefined, previous);
  }

  private refuse(w: Work, other: string): void {
    const message =
      w.type === 'CNAME'
        ? `not written: the name holds ${other} records, and a CNAME cannot be beside them`
        : `not written: the name holds a CNAME made elsewhere, and a ${w.type} cannot be beside it`;
    this.fail(w, new DdedgeError(message, ExitCode.refused));
  }

  private fail(w: Work, error: unknown): void {
    const message = outsideText((error as Error).message, 2000);
    // A refusal would meet the same answer next cycle: the name waits, longer each time, unless what it asks changes.
    if (isRefusal(exitCodeOf(error))) {
      const request = requestOf({ name: w.entry.name, ...target(w.entry) });
      w.entry.backoff = nextBackoff(w.entry.backoff, request, exitCodeOf(error), this.phase.now());
      w.entry.lastError = outsideText(message, 200);
    }
    this.phase.logger.error(`${w.entry.name} ${w.type}: ${message}`);
    this.record(w.entry.name, w.type, w.value, 'failed', message, error);
  }

  private record(
    host: string,
    type: ContainerRecordType,
    value: string,
    action: NameOutcome['action'],
    message: string,
    error?: unknown,
    previous?: string,
  ): void {
    this.report.records.push({ host, type, value, action, message, ...(error === undefined ? {} : { error }) });
    if ((type === 'A' || type === 'AAAA') && action !== 'deleted' && action !== 'left')
      this.report.outcomes.push({
        host,
        type,
        address: value,
        action,
        via: action === 'unchanged' && !error && message.startsWith('sent') ? 'cache' : 'api',
        message,
        ...(previous === undefined ? {} : { previous }),
        ...(error === undefined ? {} : { error }),
      });
  }

  private save(): void {
    writeContainerNames(this.phase.config.stateDir, this.file);
  }
}

const target = (w: { target?: string }) => (w.target ? { target: w.target } : {});

/** What a name asks of the provider, as its backoff knows it: another target (or none) is another request. */
const requestOf = (w: { name: string; target?: string }): string => `${w.name} ${w.target ? `CNAME ${w.target}` : 'A'}`;

/**
 * The names a container at a time, in turn (one of each container's, then the next of each): a budget too small for
 * all of them is shared, and a container naming 20 hosts cannot spend it before another's one name.
 */
function takenInTurn(wanted: readonly WantedName[]): WantedName[] {
  const byContainer = new Map<string, WantedName[]>();
  for (const w of wanted) {
    const key = w.containers[0] ?? '';
    const queue = byContainer.get(key) ?? [];
    queue.push(w);
    byContainer.set(key, queue);
  }
  const queues = [...byContainer.values()];
  const order: WantedName[] = [];
  for (let turn = 0; order.length < wanted.length; turn++)
    for (const queue of queues) if (queue[turn]) order.push(queue[turn]!);
  return order;
}
