// The names the agent keeps for containers, from what the engine says. A running container's
// names are kept while it runs; when it stops, each of its names no other running container gives
// is held for the grace (a restart or a new image must not flap the zone), then let go. A name two
// containers give is kept while either runs. `running` (at start and after every reconnect) is
// the truth: a container missing from it stopped while nobody listened, and its names start their
// grace then. While the engine is lost nothing is let go. Names known from before a restart are
// held until the first `running` says whether a container still gives them. A name keeps the
// target it was kept with while a container still gives it so, or it is held: a second container
// giving it another target (labels are anyone's who can start one) takes it only once no container
// has given the first target for the grace.
import type { Clock } from '../lib/clock.js';
import type { ContainerNews, ContainerSeen } from './engine/news.js';
import { containerLabel, namesOf, type NamingRules } from './labels.js';

export interface WantedName {
  name: string;
  /** The containers that give it (running ones first; those of a held name when none runs). */
  containers: string[];
  /** Its CNAME target (ddedge.target); none: the agent's address. */
  target?: string;
  /** Set while no running container gives it: when its grace ends (ms since the epoch). */
  heldUntil?: number;
}

/** A name as it was kept before (the state directory's list), to hold until the engine is heard. */
export interface KnownName {
  name: string;
  containers: string[];
  target?: string;
  /** Its grace was running already: when it ends. */
  heldUntil?: number;
}

interface Running {
  label: string;
  /** The container's name: the same service when it is recreated (a new id). */
  service: string;
  names: string[];
  target?: string;
}

interface Held {
  containers: string[];
  target?: string;
  /** Infinity until the first `running` (a name known from before a restart). */
  until: number;
  /** The name of the container that gave it (unknown for a name known from before a restart). */
  service?: string;
}

/**
 * Names kept at most, from every container together: far above a home server's, and within what the state
 * directory's list (containers.json) is read back with; past it, a container's new names are refused.
 */
export const MAX_KEPT_NAMES = 2000;

/** Warnings remembered per container so each is said once; a stopped container's are forgotten. */
const MAX_WARNED = 10_000;

export class DesiredNames {
  private readonly running = new Map<string, Running>();
  /** name -> the ids of the running containers that give it (each event looks up its own names only). */
  private readonly givers = new Map<string, Set<string>>();
  private readonly held = new Map<string, Held>();
  private readonly warned = new Set<string>();
  /** name -> the target ('' for none) it is kept with now. */
  private claimed = new Map<string, string>();
  private heardRunning = false;
  private connected = false;

  constructor(
    private readonly rules: NamingRules,
    private readonly graceMs: number,
    private readonly clock: Clock,
    private readonly warn: (message: string) => void,
  ) {}

  /**
   * Names kept before: a grace that was running goes on; the others are held until the first `running`, then for the
   * grace unless a container gives them.
   */
  seed(known: readonly KnownName[]): void {
    // A name the agent now keeps itself is the host's: never held (or written) as a container's.
    for (const k of known)
      if (!this.held.has(k.name) && !this.rules.keptHosts.includes(k.name))
        this.held.set(k.name, {
          containers: k.containers,
          ...(k.target ? { target: k.target } : {}),
          until: k.heldUntil ?? Infinity,
        });
    this.claimed = this.fingerprints(this.allNames());
  }

  /** Takes one piece of news; returns the names whose record must change (came, or changed target). */
  take(news: ContainerNews): string[] {
    if (news.kind === 'lost') {
      this.connected = false;
      return [];
    }
    if (news.kind === 'running') return this.settle(undefined, () => this.takeRunning(news.containers));
    if (news.kind === 'stopped') return this.settle(this.running.get(news.id)?.names ?? [], () => this.stop(news.id));
    const naming = namesOf(news.container, this.rules);
    const touched = [...(this.running.get(news.container.id)?.names ?? []), ...naming.names];
    return this.settle(touched, () => this.start(news.container, naming));
  }

  /** Every name kept now, sorted. */
  wanted(): WantedName[] {
    return [...this.allNames()].sort().map((name) => this.wantedName(name));
  }

  /** Makes a change; returns those of `touched` (every name when undefined) that came, went or changed target. */
  private settle(touched: readonly string[] | undefined, change: () => void): string[] {
    const before = this.fingerprints(touched ?? this.allNames());
    change();
    const after = this.fingerprints(touched ?? this.allNames());
    for (const name of before.keys()) if (!after.has(name)) this.claimed.delete(name);
    for (const [name, target] of after) this.claimed.set(name, target);
    return changedNames(before, after);
  }

  private allNames(): Set<string> {
    return new Set([...this.givers.keys(), ...this.held.keys()]);
  }

  /** The name with the target it is kept with: running containers giving that target, else its hold. */
  private wantedName(name: string): WantedName {
    const givers = [...(this.givers.get(name) ?? [])].map((id) => this.running.get(id)!);
    const h = this.held.get(name);
    const kept = this.claimed.get(name);
    const offered = [...givers.map((c) => c.target ?? ''), ...(h ? [h.target ?? ''] : [])];
    const target = kept !== undefined && offered.includes(kept) ? kept : offered[0]!;
    const giving = givers.filter((c) => (c.target ?? '') === target);
    if (giving.length || !h) return { name, containers: giving.map((c) => c.label), ...(target ? { target } : {}) };
    return {
      name,
      containers: [...h.containers],
      ...(target ? { target } : {}),
      ...(Number.isFinite(h.until) ? { heldUntil: h.until } : {}),
    };
  }

  /** Lets go of the held names whose grace has ended (none while the engine is lost); returns them. */
  expire(): string[] {
    if (!this.connected) return [];
    const now = this.clock.now();
    const ended = [...this.held].filter(([, h]) => h.until <= now).map(([name]) => name);
    return this.settle(ended, () => {
      for (const name of ended) this.held.delete(name);
    });
  }

  /** When the next grace ends, if one runs and the engine is heard. */
  nextExpiry(): number | undefined {
    if (!this.connected) return undefined;
    const ends = [...this.held.values()].map((h) => h.until).filter(Number.isFinite);
    return ends.length ? Math.min(...ends) : undefined;
  }

  private start(container: ContainerSeen, naming = namesOf(container, this.rules)): void {
    this.connected = true;
    const label = containerLabel(container);
    for (const warning of naming.warnings) this.warnOnce(container.id, warning);
    const taken = this.running.get(container.id);
    const target = naming.target ? { target: naming.target } : {};
    const names = this.withinBound(container.id, label, naming.names);
    this.setRunning(container.id, { label, service: container.name, names, ...target });
    for (const name of names) {
      const other = this.targetElsewhere(name, container.id);
      if (other !== undefined && other !== (naming.target ?? ''))
        this.warnOnce(
          container.id,
          `${label}: ${name} is given by another container with another target; kept as it was`,
        );
      // Its hold ends when the name is given as it was, or by the same service recreated (its labels may have changed).
      const h = this.held.get(name);
      if (h && ((h.target ?? '') === (naming.target ?? '') || h.service === container.name)) this.held.delete(name);
    }
    // A container seen again with other labels: the names it gave up are held as if it stopped.
    if (taken)
      this.holdUnclaimed(
        taken,
        taken.names.filter((n) => !names.includes(n)),
      );
  }

  private stop(id: string): void {
    const gone = this.running.get(id);
    if (!gone) return;
    this.setRunning(id, undefined);
    for (const key of [...this.warned]) if (key.startsWith(`${id}\n`)) this.warned.delete(key);
    this.holdUnclaimed(gone, gone.names);
  }

  private takeRunning(containers: readonly ContainerSeen[]): void {
    this.connected = true;
    const present = new Set(containers.map((c) => c.id));
    for (const id of [...this.running.keys()]) if (!present.has(id)) this.stop(id);
    for (const c of containers) this.start(c);
    if (!this.heardRunning) {
      // The names known from before: a container still gives them, or their grace starts now.
      this.heardRunning = true;
      const until = this.clock.now() + this.graceMs;
      for (const h of this.held.values()) if (!Number.isFinite(h.until)) h.until = until;
    }
  }

  /**
   * Holds, for the grace from now, those of `names` kept with the target `from` gave (or not kept yet) that no running
   * container gives so.
   */
  private holdUnclaimed(from: Running, names: string[]): void {
    const until = this.clock.now() + this.graceMs;
    const target = from.target ?? '';
    for (const name of names) {
      const kept = this.claimed.get(name) ?? target;
      if (kept !== target) continue;
      const givenSo = [...(this.givers.get(name) ?? [])].some((id) => (this.running.get(id)!.target ?? '') === target);
      const given = from.target ? { target: from.target } : {};
      if (!givenSo) this.held.set(name, { containers: [from.label], ...given, until, service: from.service });
    }
  }

  /** The target ('' for none) another running container gives `name`, undefined when none gives it. */
  private targetElsewhere(name: string, except: string): string | undefined {
    for (const id of this.givers.get(name) ?? []) if (id !== except) return this.running.get(id)!.target ?? '';
    return undefined;
  }

  /** Those of `names` kept already, and new ones while fewer than MAX_KEPT_NAMES are kept; the rest refused. */
  private withinBound(id: string, label: string, names: readonly string[]): string[] {
    let count = this.givers.size + [...this.held.keys()].filter((n) => !this.givers.has(n)).length;
    const taken: string[] = [];
    let refused = 0;
    for (const name of names) {
      if (this.givers.has(name) || this.held.has(name)) taken.push(name);
      else if (count < MAX_KEPT_NAMES) {
        taken.push(name);
        count++;
      } else refused++;
    }
    if (refused)
      this.warnOnce(id, `${label}: ${refused} of its names refused: ${MAX_KEPT_NAMES} names are kept already`);
    return taken;
  }

  /** A container's entry set (or removed, when undefined), and the index of its names with it. */
  private setRunning(id: string, entry: Running | undefined): void {
    for (const name of this.running.get(id)?.names ?? []) {
      const ids = this.givers.get(name);
      ids?.delete(id);
      if (ids?.size === 0) this.givers.delete(name);
    }
    if (!entry) return void this.running.delete(id);
    this.running.set(id, entry);
    for (const name of entry.names) this.givers.set(name, (this.givers.get(name) ?? new Set()).add(id));
  }

  private warnOnce(id: string, message: string): void {
    const key = `${id}\n${message}`;
    if (this.warned.has(key)) return;
    if (this.warned.size >= MAX_WARNED) this.warned.clear();
    this.warned.add(key);
    this.warn(message);
  }

  /** name -> its target ('' for none), for those of `names` that are kept. */
  private fingerprints(names: Iterable<string>): Map<string, string> {
    const kept = new Map<string, string>();
    for (const name of names)
      if (this.givers.has(name) || this.held.has(name)) kept.set(name, this.wantedName(name).target ?? '');
    return kept;
  }
}

/** Names that came, went or changed target between two fingerprints. */
function changedNames(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed = new Set<string>();
  for (const [name, target] of after) if (before.get(name) !== target) changed.add(name);
  for (const name of before.keys()) if (!after.has(name)) changed.add(name);
  return [...changed].sort();
}
