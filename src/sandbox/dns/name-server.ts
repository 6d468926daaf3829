// The sandbox's authoritative name server: UDP and TCP on one port, through the listener and
// responder shared with the gateway (src/dns/): a bounded amount of work per packet, no zone
// transfers, UDP answers capped so the server cannot amplify, TCP limits against slow clients.
// A line per query costs more than the answer (to a terminal or a pipe it cut the queries
// answered per second by 4): it is written at debug level only (DDEDGE_LOG_LEVEL=debug);
// otherwise one line every 10 s says how many queries were answered.
import { AnswerCache } from '../../dns/server/answer-cache.js';
import { CookieJar } from '../../dns/server/cookies.js';
import { startDnsListener } from '../../dns/server/listener.js';
import { respondToQuery, type QueryContext } from '../../dns/server/responder.js';
import type { TcpLimits } from '../../dns/server/tcp-connections.js';
import { moduleOf } from '../../lib/lazy-import.js';
import type { SandboxModel } from '../model.js';
import { generationOf } from './model-watch.js';
import { ModelZones, type NameServerAddress } from './model-zones.js';

export interface NameServerOptions {
  model: SandboxModel;
  host: string;
  /** 0 picks a port free for both UDP and TCP. */
  port: number;
  /** Where log lines go. */
  log?: (line: string) => void;
  /** One line per query (debug), or a count every 10 s (the default; debug when DDEDGE_LOG_LEVEL=debug). */
  eachQuery?: boolean;
  /** How often the count is logged (tests shorten it). */
  summaryMs?: number;
  tcpLimits?: Partial<TcpLimits>;
}

/** How often the count of queries is logged when each query is not. */
const SUMMARY_MS = 10_000;

export interface NameServer {
  port: number;
  close(): Promise<void>;
}

export async function startNameServer(options: NameServerOptions): Promise<NameServer> {
  const { isIP } = await moduleOf(import('node:net'));
  const zones = new ModelZones(options.model, glueFor(options.host, isIP(options.host) === 6 ? 6 : 4));
  const eachQuery = options.eachQuery ?? process.env.DDEDGE_LOG_LEVEL?.toLowerCase() === 'debug';
  const respond = sandboxResponder(options.model, zones, eachQuery ? options.log : undefined);
  // Index the zones now: the first questions after start are answered as fast as the rest.
  zones.sync();
  const counts = { udp: 0, tcp: 0 };
  const handle: typeof respond = (packet, context) => {
    counts[context.transport]++;
    return respond(packet, context);
  };
  const listener = await startDnsListener({
    host: options.host,
    port: options.port,
    handle,
    ...(options.tcpLimits ? { tcpLimits: options.tcpLimits } : {}),
  });
  const timer =
    eachQuery || !options.log
      ? undefined
      : setInterval(
          () => reportCounts(counts, options.log!, options.summaryMs ?? SUMMARY_MS),
          options.summaryMs ?? SUMMARY_MS,
        );
  timer?.unref();
  return {
    port: listener.port,
    close: () => {
      clearInterval(timer);
      zones.close();
      return listener.close();
    },
  };
}

/**
 * The bytes to send back for one packet (undefined: stay silent). Tests and the bench call it
 * directly. Repeated questions are answered from the answers' cache until the model changes;
 * with a line per query (debug), every query goes through the responder, which writes it.
 */
export function sandboxResponder(
  model: SandboxModel,
  zones: ModelZones,
  log?: (line: string) => void,
): (packet: Buffer, context: QueryContext) => Buffer | undefined {
  const cookies = new CookieJar();
  const answer = (q: { name: string; type: number }) => zones.answer(q.name, q.type);
  const respond = (packet: Buffer, context: QueryContext) =>
    respondToQuery(packet, context, answer, { cookies, ...(log ? { log } : {}) });
  return log ? respond : new AnswerCache(() => generationOf(model)).wrap(respond);
}

/** The address the synthesised `ns1.<zone>` has: the listen address, loopback for a wildcard. */
function glueFor(host: string, family: 4 | 6): NameServerAddress {
  if (family === 6) return { AAAA: host === '::' ? '::1' : host };
  return { A: host === '0.0.0.0' || !/^\d+\.\d+\.\d+\.\d+$/.test(host) ? '127.0.0.1' : host };
}

/** One line for the queries since the last (none when there were none), then the counts start again. */
function reportCounts(counts: { udp: number; tcp: number }, log: (line: string) => void, everyMs: number): void {
  const total = counts.udp + counts.tcp;
  if (!total) return;
  log(
    `DNS: ${total} quer${total === 1 ? 'y' : 'ies'} in the last ${everyMs / 1000} s (UDP ${counts.udp}, TCP ` +
      `${counts.tcp}); DDEDGE_LOG_LEVEL=debug logs each`,
  );
  counts.udp = 0;
  counts.tcp = 0;
}
