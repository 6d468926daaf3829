// Refusals without a verified key, told as one digest. Each counts under its source (an IPv4
// address, an IPv6 /64: one host's share of addresses); `threshold` from one source within
// `windowMs` make a digest of everything refused without a verified key since the last one
// (the busiest sources named, with their counts), and none follows for `quietMs` however many
// sources burst meanwhile: they are counted into the next. Only the source and the answer's code
// are told, never what the client named (a key, a zone). At most `sources` sources are
// remembered; the least recently seen is forgotten first, its refusals still in the total.
import { isIPv4 } from 'node:net';
import { prefixOf } from '../../lib/interface-id.js';
import type { NotifyEvent } from '../../notify/message.js';
import type { Refusal } from './refusal-log.js';

export interface DigestLimits {
  threshold: number;
  windowMs: number;
  quietMs: number;
  sources: number;
  shownSources: number;
}

/** The source a client address counts under: an IPv4 address, or an IPv6 address's /64. */
function sourceOf(address: string): string {
  const v4 = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (isIPv4(v4)) return v4;
  try {
    return prefixOf(address, 64);
  } catch {
    return address;
  }
}

interface Source {
  /** Its refusals inside the window (at most `threshold`). */
  times: number[];
  /** Its refusals since the last digest. */
  count: number;
}

export class RefusalDigest {
  private readonly sources = new Map<string, Source>();
  /** Refusals since the last digest of sources no longer remembered. */
  private unlisted = 0;
  private toldAt?: number;

  constructor(
    private readonly limits: DigestLimits,
    private readonly now: () => number,
  ) {}

  note(client: string, refusal: Refusal): NotifyEvent | undefined {
    const now = this.now();
    const source = this.touch(sourceOf(client));
    source.count++;
    source.times = source.times.filter((t) => now - t < this.limits.windowMs);
    source.times.push(now);
    if (source.times.length < this.limits.threshold) return undefined;
    source.times = [];
    if (this.toldAt !== undefined && now - this.toldAt < this.limits.quietMs) return undefined;
    const event = this.digestAt(now, refusal);
    this.toldAt = now;
    this.unlisted = 0;
    for (const s of this.sources.values()) s.count = 0;
    return event;
  }

  /** The source's entry, made the most recently seen (a Map keeps insertion order). */
  private touch(name: string): Source {
    const entry = this.sources.get(name) ?? { times: [], count: 0 };
    this.sources.delete(name);
    if (this.sources.size >= this.limits.sources) {
      const [oldest, forgotten] = this.sources.entries().next().value!;
      this.unlisted += forgotten.count;
      this.sources.delete(oldest);
    }
    this.sources.set(name, entry);
    return entry;
  }

  private digestAt(now: number, refusal: Refusal): NotifyEvent {
    const counted = [...this.sources].filter(([, s]) => s.count > 0).sort(([, a], [, b]) => b.count - a.count);
    const shown = counted.slice(0, this.limits.shownSources);
    const others = this.unlisted + counted.slice(shown.length).reduce((sum, [, s]) => sum + s.count, 0);
    const total = shown.reduce((sum, [, s]) => sum + s.count, others);
    const list = [
      ...shown.map(([name, s]) => `${name} (${s.count})`),
      ...(others ? [`and ${others} from other sources`] : []),
    ].join(', ');
    return {
      event: 'refused',
      time: new Date(now).toISOString(),
      message:
        `${total} refused without a verified key since ` +
        `${this.toldAt === undefined ? 'the gateway started' : 'the last such notification'}; ` +
        `the most from ${list}; the last: ${refusal.rcode} (no more of these for ` +
        `${Math.round(this.limits.quietMs / 60_000)} min; each is in the gateway's log)`,
    };
  }
}
