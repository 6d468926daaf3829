// Trusts an address only when `quorum` sources agree on it. Resolves as soon as the quorum is
// reached; refuses non-public answers unless allowed.
//
// DNS sources are asked first when they alone could reach the quorum: one UDP round trip each,
// no TLS handshake. The other sources (HTTPS echoes, interfaces, files) start only when the DNS
// answers can no longer agree (a failure, a disagreement, a refused non-public answer, as an
// intercepting resolver gives) or have not agreed within DNS_HEAD_START_MS; every answer then
// counts in one quorum, so a disagreement still ends in the HTTPS sources' vote.
import { systemClock, type Clock } from '../lib/clock.js';
import { AddressUnknownError } from '../lib/errors.js';
import type { Logger } from '../lib/log.js';
import { canonicalAddress, nonPublicReason, type Family } from '../lib/address.js';
import { fetchSourceAddress } from './fetch-source.js';
import { serverOf } from './source-identity.js';
import type { SourceSpec } from './sources.js';

export interface SourceAnswer {
  source: string;
  address?: string;
  error?: string;
  ms: number;
}

export interface DetectOptions {
  family: Family;
  sources: SourceSpec[];
  quorum: number;
  timeoutMs: number;
  allowPrivate: boolean;
  logger: Logger;
  /** Wait for every source even after the quorum (for `ddedge ip --json`). */
  waitForAll?: boolean;
  /** Where iface: reads IPv6 address flags (tests inject a fixture; default /proc/net/if_inet6). */
  interfaceTable?: string;
  /** The head start and the deadline run on it (default: the system's). */
  clock?: Clock;
  /** Asks one source (default: fetchSourceAddress; tests answer for the sources). */
  fetchSource?: typeof fetchSourceAddress;
}

/** No address: carries every source's answer, for `ddedge ip --json`. */
export class DetectionFailed extends AddressUnknownError {
  constructor(
    /** Why no address was learnt, without what it means for an update (`ddedge ip` sends nothing anyway). */
    readonly reason: string,
    readonly answers: SourceAnswer[],
  ) {
    super(`${reason}; nothing was sent`);
  }
}

export interface Detection {
  address: string;
  answers: SourceAnswer[];
}

/**
 * How long the DNS sources are asked alone. A DNS answer takes one round trip (under 50 ms to
 * the public resolvers from most places, 600 ms over a geostationary satellite); a TLS echo
 * takes three or more. Past this wait the other sources are asked too, so a DNS answer lost in
 * transit (re-sent only after timeout / 3) costs at most this much, never the whole timeout.
 */
export const DNS_HEAD_START_MS = 500;

export function detectAddress(options: DetectOptions): Promise<Detection> {
  return new Promise((resolve, reject) => new DetectionRun(options, resolve, reject).start());
}

/** One detection: the sources asked in their stages, every answer counted, one ending. */
class DetectionRun {
  private readonly clock: Clock;
  private readonly answers: SourceAnswer[] = [];
  private readonly votes = new Map<string, number>();
  private readonly witnesses = new Map<string, Set<string>>();
  private readonly started: number;
  private readonly first: SourceSpec[];
  private readonly rest: SourceSpec[];
  private winner: string | undefined;
  private pending: number;
  private firstPending: number;
  private restStarted: boolean;
  private settled = false;
  private cancelDeadline = (): void => {};
  private cancelHeadStart = (): void => {};

  constructor(
    private readonly options: DetectOptions,
    private readonly resolve: (detection: Detection) => void,
    private readonly reject: (error: DetectionFailed) => void,
  ) {
    this.clock = options.clock ?? systemClock;
    this.started = this.clock.now();
    this.pending = options.sources.length;
    [this.first, this.rest] = stages(options.sources, options.quorum, options.waitForAll === true);
    this.firstPending = this.first.length;
    this.restStarted = this.rest.length === 0;
  }

  start(): void {
    // A deadline for the whole detection, not only for each request: DNS retries and slow
    // bodies must not hold a cycle past its budget. Sources asked after the DNS head start get
    // their full timeout too.
    const deadlineMs = this.options.timeoutMs + 250 + (this.rest.length ? DNS_HEAD_START_MS : 0);
    this.cancelDeadline = this.clock.after(deadlineMs, () => this.giveUpAtDeadline());
    if (this.rest.length) {
      this.cancelHeadStart = this.clock.after(DNS_HEAD_START_MS, () =>
        this.startRest(`no DNS quorum within ${DNS_HEAD_START_MS} ms`),
      );
    }
    for (const spec of this.first) this.ask(spec, 'first');
  }

  private giveUpAtDeadline(): void {
    for (const s of this.options.sources) {
      if (!this.answers.some((a) => a.source === s.name))
        this.answers.push({ source: s.name, error: 'no answer before the deadline', ms: this.options.timeoutMs });
    }
    this.pending = 0;
    this.conclude();
  }

  private conclude(): void {
    if (this.settled) return;
    if (this.winner && (!this.options.waitForAll || this.pending === 0)) {
      this.end();
      this.resolve({ address: this.winner, answers: this.answers });
      return;
    }
    if (this.pending > 0) return;
    this.end();
    const { family, quorum } = this.options;
    const summary = this.answers
      .map((a) => `${a.source}: ${[a.address, a.error].filter(Boolean).join(' ')}`)
      .join('; ');
    const disagreement = this.votes.size > 0;
    this.reject(
      new DetectionFailed(
        disagreement
          ? `IPv${family} sources disagree: no address was reported by ${quorum} sources (${summary})`
          : `no IPv${family} source answered usefully (${summary})`,
        this.answers,
      ),
    );
  }

  private end(): void {
    this.settled = true;
    this.cancelDeadline();
    this.cancelHeadStart();
  }

  private record(spec: SourceSpec, raw: string | undefined, error: Error | undefined): void {
    // Once ended, the answers are the caller's: a late one (past the deadline) is not added.
    if (this.settled) return;
    const { logger } = this.options;
    const ms = this.clock.now() - this.started;
    if (error || raw === undefined) {
      logger.debug('source failed', { source: spec.name, error: error?.message, ms });
      this.answers.push({ source: spec.name, error: error?.message ?? 'no address', ms });
      return;
    }
    const address = canonicalAddress(raw);
    const reason = this.options.allowPrivate ? undefined : nonPublicReason(address);
    if (reason) {
      logger.warn(`refused ${address} from ${spec.name}: ${reason} (use --allow-private-ip to accept it)`);
      this.answers.push({ source: spec.name, address, error: `refused: ${reason}`, ms });
      return;
    }
    logger.debug('source answered', { source: spec.name, address, ms });
    this.answers.push({ source: spec.name, address, ms });
    this.vote(spec, address);
  }

  /** One server is one witness, however many sources ask it (source-identity.ts). */
  private vote(spec: SourceSpec, address: string): void {
    const voters = this.witnesses.get(address) ?? new Set<string>();
    voters.add(serverOf(spec));
    this.witnesses.set(address, voters);
    this.votes.set(address, voters.size);
    if (voters.size >= this.options.quorum) this.winner ??= address;
  }

  private startRest(why: string): void {
    if (this.restStarted || this.settled) return;
    this.restStarted = true;
    this.cancelHeadStart();
    this.options.logger.debug(`asking the other sources: ${why}`, { sources: this.rest.map((s) => s.name).join(',') });
    for (const spec of this.rest) this.ask(spec, 'rest');
  }

  /**
   * The DNS answers can still agree while the best-supported address plus the DNS sources yet to answer reach the
   * quorum.
   */
  private dnsCanStillAgree(): boolean {
    return Math.max(0, ...this.votes.values()) + this.firstPending >= this.options.quorum;
  }

  private ask(spec: SourceSpec, stage: 'first' | 'rest'): void {
    const { family, timeoutMs, logger, interfaceTable, fetchSource = fetchSourceAddress } = this.options;
    fetchSource(spec, family, timeoutMs, { logger, interfaceTable })
      .then(
        (raw) => this.record(spec, raw, undefined),
        (error: Error) => this.record(spec, undefined, error),
      )
      .finally(() => {
        this.pending = Math.max(0, this.pending - 1);
        if (stage === 'first') {
          this.firstPending--;
          if (!this.winner && !this.dnsCanStillAgree()) this.startRest('the DNS sources failed or disagree');
        }
        this.conclude();
      });
  }
}

/**
 * Which sources are asked first and which after the DNS head start: the DNS sources first when
 * they are different servers enough to reach the quorum alone and other sources are there to
 * settle a disagreement. Otherwise (or when every answer is wanted, `ip --json`) all at once.
 */
function stages(sources: SourceSpec[], quorum: number, waitForAll: boolean): [SourceSpec[], SourceSpec[]] {
  const dns = sources.filter((s) => s.kind === 'dns');
  const others = sources.filter((s) => s.kind !== 'dns');
  const dnsServers = new Set(dns.map(serverOf)).size;
  if (waitForAll || !others.length || dnsServers < quorum) return [sources, []];
  return [dns, others];
}
