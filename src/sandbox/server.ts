// The sandbox's HTTP(S) server: the registrar API at POST /<module>/<action>/ and the
// dynamic DNS interface at GET /json/, /xml/, /plain/ — one origin, as clients that take
// only a host name expect.
import { writeFileAtomic } from '../lib/atomic-write.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DYNDNS_FORMATS, type DyndnsFormat } from '../dyndns/result.js';
import { moduleOf } from '../lib/lazy-import.js';
import { runOperation, SANDBOX_API_VERSION, SandboxApiError } from './api-operations.js';
import { renderXmlEnvelope } from './render-xml.js';
import { handleDyndns, type PlainStyle } from './dyndns.js';
import { loadSandboxData } from './data-file.js';
import { answerLost, applyFault, takeFault, type Fault } from './faults.js';
import { demoModel, type SandboxModel } from './model.js';

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

// service/dnssetzone carries a whole zone as Base64 of JSON: 100,000 records are ~12 MB.
const MAX_FORM_BYTES = 32 * 1024 * 1024;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const model = options.dataFile ? loadSandboxData(options.dataFile) : demoModel();
  const faults = options.faults ?? [];
  const calls = new Map<string, number>();
  const save = () => {
    if (options.dataFile) writeFileAtomic(options.dataFile, JSON.stringify(model, null, 2));
  };

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    serve(req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(`sandbox error: ${error.message}\n`);
      else res.destroy();
    });
  };

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const segments = url.pathname.split('/').filter(Boolean);
    const caller = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    const isDyndns = segments.length === 1 && (DYNDNS_FORMATS as readonly string[]).includes(segments[0]!);
    const target = isDyndns ? 'dyndns' : segments.join('/');
    calls.set(target, (calls.get(target) ?? 0) + 1);
    const fault = takeFault(faults, target);
    if (fault) options.log?.(`${req.method} ${url.pathname} fault ${fault.kind}`);
    if (fault && (await applyFault(fault, req, res))) return;

    if (isDyndns) {
      if (req.method !== 'GET') return void res.writeHead(405, { allow: 'GET' }).end();
      const answer = handleDyndns(model, segments[0] as DyndnsFormat, url.searchParams, caller, options.plainStyle);
      options.log?.(`GET ${url.pathname} host=${url.searchParams.get('host')} ip=${url.searchParams.get('ip') || `(caller ${caller})`} -> ${answer.summary}`);
      if (answer.changed) save();
      if (answerLost(fault)) return void req.socket.destroy();
      return send(res, answer.status, answer.contentType, answer.body);
    }
    if (segments.length !== 2) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: the API is at POST /<module>/<action>/, dynamic DNS at GET /json/, /xml/, /plain/\n');
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('the API takes POST with form fields\n');

    // Form fields only: parameters sent with GET are ignored, as by the real API.
    const fields = Object.fromEntries(new URLSearchParams(await readBody(req)));
    const envelope = answerApi(target, fields, caller);
    options.log?.(`POST /${target}/ -> ${envelope.success ? 'ok' : `error ${envelope.errorCode} ${envelope.errorCodeMsg}`}${answerLost(fault) ? ' (answer lost)' : ''}`);
    // Made (and saved), but the caller never hears of it.
    if (answerLost(fault)) return void req.socket.destroy();
    const pretty = fields['output-pretty'] === 'true' || fields['output-pretty'] === '1';
    if (fields['output-format'] === 'xml') send(res, 200, 'application/xml; charset=utf-8', renderXmlEnvelope(envelope, pretty));
    else send(res, 200, 'application/json', JSON.stringify(envelope, null, pretty ? 2 : undefined));
  }

  function answerApi(action: string, fields: Record<string, string>, caller: string): Record<string, unknown> & { success: boolean; errorCode: number; errorCodeMsg: string } {
    const base = { action, version: SANDBOX_API_VERSION };
    try {
      const allowed = options.allowedIps ?? model.account.allowedIps;
      if (allowed?.length && !allowed.includes(caller)) throw new SandboxApiError(1007, 'Account filtered: IP not allowed', [`${caller} is not a registered address of this account`]);
      if (fields.apiuser !== model.account.apiUser) throw new SandboxApiError(1003, 'Account does not exist', ['invalid user']);
      if (fields.apipasswd !== model.account.apiPassword) throw new SandboxApiError(1004, 'Account invalid password', ['invalid password']);
      const { data, writes } = runOperation(action, { fields, model, callerAddress: caller });
      if (writes) save();
      return { success: true, errorCode: 0, errorCodeMsg: '', ...base, messages: [], responseData: data };
    } catch (error) {
      if (!(error instanceof SandboxApiError)) throw error;
      return { success: false, errorCode: error.code, errorCodeMsg: error.codeMessage, ...base, messages: error.messages, responseData: [] };
    }
  }

  // TLS is loaded only when a certificate is given: the plain sandbox starts faster.
  const server = options.tls
    ? (await moduleOf(import('node:https'))).createServer({ cert: options.tls.cert, key: options.tls.key }, handler)
    : (await moduleOf(import('node:http'))).createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const closeHttp = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  // The name server reads the same model: changes through the API are answered at once.
  const nameServer =
    options.dnsPort === undefined
      ? undefined
      : await (await import('./dns/name-server.js')).startNameServer({ model, host: address.address, port: options.dnsPort, log: options.log }).catch(async (error: unknown) => {
          await closeHttp();
          throw error;
        });
  return {
    url: `${options.tls ? 'https' : 'http'}://${host}:${address.port}`,
    model,
    faults,
    calls,
    ...(nameServer ? { dnsPort: nameServer.port } : {}),
    close: async () => {
      await Promise.all([closeHttp(), nameServer?.close()]);
    },
  };
}

/**
 * Answers with a Content-Length, as the provider's front end does: clients that read the
 * socket themselves (ddclient 3.10) do not decode chunked bodies.
 */
function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) }).end(body);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FORM_BYTES) {
        reject(new Error('form too large'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
