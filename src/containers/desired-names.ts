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

/** Warnings remembered per container so each is said once; a stopped container's are forgotten. */
const MAX_WARNED = 10_000;

export class DesiredNames {
  private readonly running = new Map<string, Running>();
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
    for (const k of known)
      if (!this.held.has(k.name))
        this.held.set(k.name, {
          containers: k.containers,
          ...(k.target ? { target: k.target } : {}),
          until: k.heldUntil ?? Infinity,
        });
    this.claimed = this.fingerprints();
  }

  /** Takes one piece of news; returns the names whose record must change (came, or changed target). */
  take(news: ContainerNews): string[] {
    const before = this.fingerprints();
    if (news.kind === 'lost') this.connected = false;
    else if (news.kind === 'started') this.start(news.container);
    else if (news.kind === 'stopped') this.stop(news.id);
    else this.takeRunning(news.containers);
    this.claimed = this.fingerprints();
    return changedNames(before, this.claimed);
  }

  /** Every name kept now, sorted. */
  wanted(): WantedName[] {
    const givers = new Map<string, Running[]>();
    for (const c of this.running.values())
      for (const name of c.names) givers.set(name, [...(givers.get(name) ?? []), c]);
    const names = new Set([...givers.keys(), ...this.held.keys()]);
    return [...names].sort().map((name) => this.wantedName(name, givers.get(name) ?? []));
  }

  /** The name with the target it is kept with: running containers giving that target, else its hold. */
  private wantedName(name: string, givers: Running[]): WantedName {
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
    const before = this.fingerprints();
    for (const [name, h] of [...this.held]) if (h.until <= now) this.held.delete(name);
    this.claimed = this.fingerprints();
    return changedNames(before, this.claimed);
  }

  /** When the next grace ends, if one runs and the engine is heard. */
  nextExpiry(): number | undefined {
    if (!this.connected) return undefined;
    const ends = [...this.held.values()].map((h) => h.until).filter(Number.isFinite);
    return ends.length ? Math.min(...ends) : undefined;
  }

  private start(container: ContainerSeen): void {
    this.connected = true;
    const label = containerLabel(container);
    const naming = namesOf(container, this.rules);
    for (const warning of naming.warnings) this.warnOnce(container.id, warning);
    const taken = this.running.get(container.id);
    const target = naming.target ? { target: naming.target } : {};
    this.running.set(container.id, { label, service: container.name, names: naming.names, ...target });
    for (const name of naming.names) {
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
        taken.names.filter((n) => !naming.names.includes(n)),
      );
  }

  private stop(id: string): void {
    const gone = this.running.get(id);
    if (!gone) return;
    this.running.delete(id);
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
      const givenSo = [...this.running.values()].some((c) => c.names.includes(name) && (c.target ?? '') === target);
      const given = from.target ? { target: from.target } : {};
      if (!givenSo) this.held.set(name, { containers: [from.label], ...given, until, service: from.service });
    }
  }

  /** The target ('' for none) another running container gives `name`, undefined when none gives it. */
  private targetElsewhere(name: string, except: string): string | undefined {
    for (const [id, c] of this.running) if (id !== except && c.names.includes(name)) return c.target ?? '';
    return undefined;
  }

  private warnOnce(id: string, message: string): void {
    const key = `${id}\n${message}`;
    if (this.warned.has(key)) return;
    if (this.warned.size >= MAX_WARNED) this.warned.clear();
    this.warned.add(key);
    this.warn(message);
  }

  /** name -> its target ('' for none), for every name kept. */
  private fingerprints(): Map<string, string> {
    return new Map(this.wanted().map((w) => [w.name, w.target ?? '']));
  }
}

/** Names that came, went or changed target between two fingerprints. */
function changedNames(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed = new Set<string>();
  for (const [name, target] of after) if (before.get(name) !== target) changed.add(name);
  for (const name of before.keys()) if (!after.has(name)) changed.add(name);
  return [...changed].sort();
}
