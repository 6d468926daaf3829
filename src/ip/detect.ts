// Asks every source at once and trusts an address only when `quorum` sources agree on it.
// Resolves as soon as the quorum is reached; refuses non-public answers unless allowed.
import { AddressUnknownError } from '../runtime/errors.js';
import type { Logger } from '../runtime/log.js';
import { canonicalAddress, nonPublicReason, type Family } from './address.js';
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
    message: string,
    readonly answers: SourceAnswer[],
  ) {
    super(message);
  }
}

export interface Detection {
  address: string;
  answers: SourceAnswer[];
}

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
    const conclude = () => {
      if (settled) return;
      if (winner && (!options.waitForAll || pending === 0)) {
        settled = true;
        clearTimeout(deadline);
        return resolve({ address: winner, answers });
      }
      if (pending > 0) return;
      settled = true;
      clearTimeout(deadline);
      const summary = answers.map((a) => `${a.source}: ${[a.address, a.error].filter(Boolean).join(' ')}`).join('; ');
      const disagreement = votes.size > 0;
      reject(new DetectionFailed(
        disagreement
          ? `IPv${family} sources disagree: no address was reported by ${quorum} sources (${summary}); nothing was sent`
          : `no IPv${family} source answered usefully (${summary}); nothing was sent`,
        answers,
      ));
    };
    // A deadline for the whole detection, not only for each request: DNS retries and slow
    // bodies must not hold a cycle past its budget.
    const deadline = setTimeout(() => {
      for (const s of sources) {
        if (!answers.some((a) => a.source === s.name)) answers.push({ source: s.name, error: 'no answer before the deadline', ms: options.timeoutMs });
      }
      pending = 0;
      conclude();
    }, options.timeoutMs + 250);

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

    for (const spec of sources) {
      fetchSourceAddress(spec, family, options.timeoutMs, { logger, interfaceTable: options.interfaceTable })
        .then((raw) => record(spec, raw, undefined), (error: Error) => record(spec, undefined, error))
        .finally(() => {
          pending = Math.max(0, pending - 1);
          conclude();
        });
    }
  });
}
