// The sandbox's authoritative name server: UDP and TCP on one port, through the listener and
// responder shared with the gateway (src/dns/): a bounded amount of work per packet, no zone
// transfers, UDP answers capped so the server cannot amplify, TCP limits against slow clients.
import { CookieJar } from '../../dns/cookies.js';
import { startDnsListener } from '../../dns/listener.js';
import { respondToQuery, type QueryContext } from '../../dns/responder.js';
import type { TcpLimits } from '../../dns/tcp-connections.js';
import { moduleOf } from '../../runtime/lazy-import.js';
import type { SandboxModel } from '../model.js';
import { answerQuestion, ZoneCache, type NameServerAddress } from './zone-answers.js';

export interface NameServerOptions {
  model: SandboxModel;
  host: string;
  /** 0 picks a port free for both UDP and TCP. */
  port: number;
  /** One line per query. */
  log?: (line: string) => void;
  tcpLimits?: Partial<TcpLimits>;
}

export interface NameServer {
  port: number;
  close(): Promise<void>;
}

export async function startNameServer(options: NameServerOptions): Promise<NameServer> {
  const { isIP } = await moduleOf(import('node:net'));
  const zones = new ZoneCache(glueFor(options.host, isIP(options.host) === 6 ? 6 : 4));
  const respond = sandboxResponder(options.model, zones, options.log);
  // Index the zones now: the first questions after start are answered as fast as the rest.
  for (const service of options.model.services) zones.viewOf(options.model, service);
  const listener = await startDnsListener({ host: options.host, port: options.port, handle: respond, ...(options.tcpLimits ? { tcpLimits: options.tcpLimits } : {}) });
  return { port: listener.port, close: () => listener.close() };
}

/** The bytes to send back for one packet (undefined: stay silent). Tests and the bench call it directly. */
export function sandboxResponder(model: SandboxModel, zones: ZoneCache, log?: (line: string) => void): (packet: Buffer, context: QueryContext) => Buffer | undefined {
  const cookies = new CookieJar();
  const answer = (q: { name: string; type: number }) => answerQuestion(model, q.name, q.type, zones);
  return (packet, context) => respondToQuery(packet, context, answer, { cookies, ...(log ? { log } : {}) });
}

/** The address the synthesised `ns1.<zone>` has: the listen address, loopback for a wildcard. */
function glueFor(host: string, family: 4 | 6): NameServerAddress {
  if (family === 6) return { AAAA: host === '::' ? '::1' : host };
  return { A: host === '0.0.0.0' || !/^\d+\.\d+\.\d+\.\d+$/.test(host) ? '127.0.0.1' : host };
}
