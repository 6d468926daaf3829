// Trusts an address only when `quorum` sources agree on it. Resolves as soon as the quorum is
// reached; refuses non-public answers unless allowed.
//
// DNS sources are asked first when they alone could reach the quorum: one UDP round trip each,
// no TLS handshake. The other sources (HTTPS echoes, interfaces, files) start only when the DNS
// answers can no longer agree (a failure, a disagreement, a refused non-public answer, as an
// intercepting resolver gives) or have not agreed within DNS_HEAD_START_MS; every answer then
// counts in one quorum, so a disagreement still ends in the HTTPS sources' vote.
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
  const { family, sources, quorum, logger } = options;
  const answers: SourceAnswer[] = [];
  const votes = new Map<string, number>();
  const witnesses = new Map<string, Set<string>>();
  let winner: string | undefined;
  // Date.now(), not performance.now(): the global `performance` loads perf_hooks (8 internal modules) on first use.
  const started = Date.now();

  return new Promise((resolve, reject) => {
    let pending = sources.length;
    let settled = false;
    let headStart: NodeJS.Timeout | undefined;
    const conclude = () => {
      if (settled) return;
      if (winner && (!options.waitForAll || pending === 0)) {
        settled = true;
        clearTimeout(deadline);
        clearTimeout(headStart);
        return resolve({ address: winner, answers });
      }
      if (pending > 0) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(headStart);
      const summary = answers.map((a) => `${a.source}: ${[a.address, a.error].filter(Boolean).join(' ')}`).join('; ');
      const disagreement = votes.size > 0;
      reject(
        new DetectionFailed(
          disagreement
            ? `IPv${family} sources disagree: no address was reported by ${quorum} sources (${summary})`
            : `no IPv${family} source answered usefully (${summary})`,
          answers,
        ),
      );
    };
    const [first, rest] = stages(sources, quorum, options.waitForAll === true);
    // A deadline for the whole detection, not only for each request: DNS retries and slow
    // bodies must not hold a cycle past its budget. Sources asked after the DNS head start get
    // their full timeout too.
    const deadline = setTimeout(
      () => {
        for (const s of sources) {
          if (!answers.some((a) => a.source === s.name))
            answers.push({ source: s.name, error: 'no answer before the deadline', ms: options.timeoutMs });
        }
        pending = 0;
        conclude();
      },
      options.timeoutMs + 250 + (rest.length ? DNS_HEAD_START_MS : 0),
    );

    const record = (spec: SourceSpec, raw: string | undefined, error: Error | undefined) => {
      if (settled && !options.waitForAll) return;
      const ms = Date.now() - started;
      if (error || raw === undefined) {
        logger.debug('source failed', { source: spec.name, error: error?.message, ms });
        answers.push({ source: spec.name, error: error?.message ?? 'no address', ms });
        return;
      }
      const address = canonicalAddress(raw);
      const reason = options.allowPrivate ? undefined : nonPublicReason(address);
      if (reason) {
        logger.warn(`refused ${address} from ${spec.name}: ${reason} (use --allow-private-ip to accept it)`);
        answers.push({ source: spec.name, address, error: `refused: ${reason}`, ms });
        return;
      }
      logger.debug('source answered', { source: spec.name, address, ms });
      answers.push({ source: spec.name, address, ms });
      // One server is one witness, however many sources ask it (source-identity.ts).
      const voters = witnesses.get(address) ?? new Set<string>();
      voters.add(serverOf(spec));
      witnesses.set(address, voters);
      votes.set(address, voters.size);
      if (voters.size >= quorum) winner ??= address;
    };

    let firstPending = first.length;
    let restStarted = rest.length === 0;
    const startRest = (why: string) => {
      if (restStarted || settled) return;
      restStarted = true;
      clearTimeout(headStart);
      logger.debug(`asking the other sources: ${why}`, { sources: rest.map((s) => s.name).join(',') });
      for (const spec of rest) ask(spec, 'rest');
    };
    // The DNS answers can still agree while the best-supported address plus the DNS sources
    // yet to answer reach the quorum.
    const dnsCanStillAgree = () => Math.max(0, ...votes.values()) + firstPending >= quorum;
    headStart = rest.length
      ? setTimeout(() => startRest(`no DNS quorum within ${DNS_HEAD_START_MS} ms`), DNS_HEAD_START_MS)
      : undefined;

    function ask(spec: SourceSpec, stage: 'first' | 'rest') {
      fetchSourceAddress(spec, family, options.timeoutMs, { logger, interfaceTable: options.interfaceTable })
        .then(
          (raw) => record(spec, raw, undefined),
          (error: Error) => record(spec, undefined, error),
        )
        .finally(() => {
          pending = Math.max(0, pending - 1);
          if (stage === 'first') {
            firstPending--;
            if (!winner && !dnsCanStillAgree()) startRest('the DNS sources failed or disagree');
          }
          conclude();
        });
    }
    for (const spec of first) ask(spec, 'first');
  });
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
