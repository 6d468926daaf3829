// The sandbox's HTTP(S) server: the registrar API at POST /<module>/<action>/ and the
// dynamic DNS interface at GET /json/, /xml/, /plain/ (request-handler.ts) — one origin, as
// clients that take only a host name expect — bounded as every ddedge door is (http/server/).
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { boundConnections, serverOptions } from '../http/server/bounds.js';
import type { HttpServerLimits } from '../http/server/server-limits.js';
import { closeHttp } from '../http/server/listen.js';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { moduleOf } from '../lib/lazy-import.js';
import { loadSandboxData } from './data-file.js';
import type { PlainStyle } from './dyndns.js';
import type { Fault } from './faults.js';
import { demoModel, type SandboxModel } from './model.js';
import { sandboxHandler } from './request-handler.js';

export interface SandboxOptions {
  port?: number;
  host?: string;
  dataFile?: string;
  tls?: { cert: string; key: string };
  faults?: Fault[];
  /** One line per request served (the CLI writes them to stderr). */
  log?: (line: string) => void;
  /** The second line of a plain dynamic DNS answer when the address changed (default: the spec's UPDATE:). */
  plainStyle?: PlainStyle;
  /** Calling addresses the API accepts (as the provider's registered-IP list); others get error 1007. */
  allowedIps?: string[];
  /** Also answer DNS queries (UDP and TCP) for the zones, on this port of the same address; 0 picks one. */
  dnsPort?: number;
}

export interface Sandbox {
  url: string;
  model: SandboxModel;
  faults: Fault[];
  /** Requests served, by target (`dyndns` or `module/action`): tests count provider calls with it. */
  calls: Map<string, number>;
  /** The name server's port, when started with `dnsPort`. */
  dnsPort?: number;
  close(): Promise<void>;
}

/**
 * The bounds of every door (connections in all and per address, the oldest idle closed first;
 * a malformed request answered and closed) at sizes that never stand in a test's way: tests
 * call from 127.0.0.1 only, many at once, so one address may hold as many connections as all.
 * Headers and deadlines are Node's own defaults, as they were; a fault may hold an answer back
 * as long as it was asked to (--fault x=hang:<ms>), so silence closes nothing; and a keep-alive
 * connection carries any number of requests.
 */
export const SANDBOX_LIMITS: HttpServerLimits = {
  headerBytes: 16 * 1024,
  headersTimeoutMs: 60_000,
  requestTimeoutMs: 300_000,
  idleMs: 5_000,
  silenceMs: 0,
  requestsPerConnection: 0,
  connections: { total: 4096, perSource: 4096, knownSources: 0, knownForMs: 0 },
};

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const model = options.dataFile ? loadSandboxData(options.dataFile) : demoModel();
  const faults = options.faults ?? [];
  const calls = new Map<string, number>();
  const save = () => {
    if (options.dataFile) writeFileAtomic(options.dataFile, JSON.stringify(model, null, 2));
  };
  const { log, plainStyle, allowedIps } = options;
  const handler = sandboxHandler({ model, faults, calls, save, log, plainStyle, allowedIps });
  const server = await createServer(options.tls, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // The name server reads the same model: changes through the API are answered at once.
  const dnsPort = options.dnsPort;
  const nameServer =
    dnsPort === undefined
      ? undefined
      : await (await import('./dns/name-server.js'))
          .startNameServer({ model, host: address.address, port: dnsPort, log })
          .catch(async (error: unknown) => {
            await closeHttp(server);
            throw error;
          });
  return {
    url: `${options.tls ? 'https' : 'http'}://${host}:${address.port}`,
    model,
    faults,
    calls,
    ...(nameServer ? { dnsPort: nameServer.port } : {}),
    close: async () => {
      await Promise.all([closeHttp(server), nameServer?.close()]);
    },
  };
}

/** The server, bounded; TLS is loaded only with a certificate given: the plain sandbox starts faster. */
async function createServer(tls: SandboxOptions['tls'], handler: http.RequestListener): Promise<http.Server> {
  const options = serverOptions(SANDBOX_LIMITS);
  const server = tls
    ? (await moduleOf(import('node:https'))).createServer({ ...options, cert: tls.cert, key: tls.key }, handler)
    : (await moduleOf(import('node:http'))).createServer(options, handler);
  boundConnections(server as http.Server, SANDBOX_LIMITS);
  return server as http.Server;
}
