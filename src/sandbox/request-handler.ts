// The sandbox's answer to one HTTP request: the registrar API at POST /<module>/<action>/ and
// the dynamic DNS interface at GET /json/, /xml/, /plain/, with the faults asked for applied
// first and every request counted by target.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DYNDNS_FORMATS, type DyndnsFormat } from '../dyndns/result.js';
import { runOperation, SANDBOX_API_VERSION, SandboxApiError } from './api-operations.js';
import { renderXmlEnvelope } from './render-xml.js';
import { handleDyndns, type PlainStyle } from './dyndns.js';
import { answerLost, applyFault, takeFault, type Fault } from './faults.js';
import type { SandboxModel } from './model.js';

/** What the handler answers from and records into. */
export interface SandboxRequests {
  model: SandboxModel;
  faults: Fault[];
  /** Requests served, by target (`dyndns` or `module/action`). */
  calls: Map<string, number>;
  /** Writes the model to its data file, when it has one. */
  save: () => void;
  /** One line per request served. */
  log?: (line: string) => void;
  plainStyle?: PlainStyle;
  /** Calling addresses the API accepts; others get error 1007. Without it, the account's list. */
  allowedIps?: string[];
}

type Envelope = Record<string, unknown> & { success: boolean; errorCode: number; errorCodeMsg: string };

// service/dnssetzone carries a whole zone as Base64 of JSON: 100,000 records are ~12 MB.
const MAX_FORM_BYTES = 32 * 1024 * 1024;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export function sandboxHandler(sandbox: SandboxRequests): Handler {
  return (req, res) => {
    serve(req, res, sandbox).catch((error: Error) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`sandbox error: ${error.message}\n`);
    });
  };
}

async function serve(req: IncomingMessage, res: ServerResponse, sandbox: SandboxRequests): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const segments = url.pathname.split('/').filter(Boolean);
  const caller = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  const isDyndns = segments.length === 1 && (DYNDNS_FORMATS as readonly string[]).includes(segments[0]!);
  const target = isDyndns ? 'dyndns' : segments.join('/');
  sandbox.calls.set(target, (sandbox.calls.get(target) ?? 0) + 1);
  const fault = takeFault(sandbox.faults, target);
  if (fault) sandbox.log?.(`${req.method} ${url.pathname} fault ${fault.kind}`);
  if (fault && (await applyFault(fault, req, res))) return;

  if (isDyndns) return serveDyndns(req, res, url, segments[0] as DyndnsFormat, { sandbox, caller, fault });
  if (segments.length !== 2) {
    const where = 'the API is at POST /<module>/<action>/, dynamic DNS at GET /json/, /xml/, /plain/';
    return void res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${where}\n`);
  }
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' });
    return void res.end('the API takes POST with form fields\n');
  }

  // Form fields only: parameters sent with GET are ignored, as by the real API.
  const fields = Object.fromEntries(new URLSearchParams(await readBody(req)));
  const envelope = answerApi(sandbox, target, fields, caller);
  const outcome = envelope.success ? 'ok' : `error ${envelope.errorCode} ${envelope.errorCodeMsg}`;
  sandbox.log?.(`POST /${target}/ -> ${outcome}${answerLost(fault) ? ' (answer lost)' : ''}`);
  // Made (and saved), but the caller never hears of it.
  if (answerLost(fault)) return void req.socket.destroy();
  const pretty = fields['output-pretty'] === 'true' || fields['output-pretty'] === '1';
  const xml = 'application/xml; charset=utf-8';
  if (fields['output-format'] === 'xml') send(res, 200, xml, renderXmlEnvelope(envelope, pretty));
  else send(res, 200, 'application/json', JSON.stringify(envelope, null, pretty ? 2 : undefined));
}

interface DyndnsCall {
  sandbox: SandboxRequests;
  caller: string;
  fault: Fault | undefined;
}

function serveDyndns(req: IncomingMessage, res: ServerResponse, url: URL, format: DyndnsFormat, call: DyndnsCall) {
  const { sandbox, caller, fault } = call;
  if (req.method !== 'GET') return void res.writeHead(405, { allow: 'GET' }).end();
  const answer = handleDyndns(sandbox.model, format, url.searchParams, caller, sandbox.plainStyle);
  const ip = url.searchParams.get('ip') || `(caller ${caller})`;
  sandbox.log?.(`GET ${url.pathname} host=${url.searchParams.get('host')} ip=${ip} -> ${answer.summary}`);
  if (answer.changed) sandbox.save();
  if (answerLost(fault)) return void req.socket.destroy();
  send(res, answer.status, answer.contentType, answer.body);
}

function answerApi(sandbox: SandboxRequests, action: string, fields: Record<string, string>, caller: string): Envelope {
  const { model } = sandbox;
  const base = { action, version: SANDBOX_API_VERSION };
  try {
    const allowed = sandbox.allowedIps ?? model.account.allowedIps;
    if (allowed?.length && !allowed.includes(caller)) {
      const why = `${caller} is not a registered address of this account`;
      throw new SandboxApiError(1007, 'Account filtered: IP not allowed', [why]);
    }
    if (fields.apiuser !== model.account.apiUser) {
      throw new SandboxApiError(1003, 'Account does not exist', ['invalid user']);
    }
    if (fields.apipasswd !== model.account.apiPassword) {
      throw new SandboxApiError(1004, 'Account invalid password', ['invalid password']);
    }
    const { data, writes } = runOperation(action, { fields, model, callerAddress: caller });
    if (writes) sandbox.save();
    return { success: true, errorCode: 0, errorCodeMsg: '', ...base, messages: [], responseData: data };
  } catch (error) {
    if (!(error instanceof SandboxApiError)) throw error;
    const { code: errorCode, codeMessage: errorCodeMsg, messages } = error;
    return { success: false, errorCode, errorCodeMsg, ...base, messages, responseData: [] };
  }
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
