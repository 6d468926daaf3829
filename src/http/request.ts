// The one place that decides how ddedge talks HTTP, whatever carries the bytes: the https
// rule, a deadline covering connect + answer, a cap on the answer's size, a User-Agent, and
// errors that name what failed with a URL whose secrets are masked.
import { systemClock, type Clock } from '../lib/clock.js';
import { DdedgeError } from '../lib/errors.js';
import { redactUrl } from '../lib/redact.js';
import { USER_AGENT } from '../lib/version.js';
import { TransportError } from './errors.js';
import { wireTransport } from './wire-transport.js';
import type { Transport } from './transport.js';
import { checkUrl } from './url-policy.js';
import { WireError } from './wire-response.js';

const DEFAULT_MAX_BYTES = 1024 * 1024;

export interface HttpRequest {
  url: string;
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxBytes?: number;
  family?: 4 | 6;
  /** Names the URL's setting in errors, e.g. "--dyndns-url". */
  setting?: string;
  transport?: Transport;
  /** The deadline runs on it (default: the system's). */
  clock?: Clock;
  /** A unix socket that carries the request; the URL then gives the path (a local engine's API). */
  socketPath?: string;
  /** The caller's own rule for the URL instead of the https rule (a container engine's API). */
  urlRule?: (text: string, setting: string) => URL;
  /** How messages name the target when its URL would mislead (a unix socket's); no secrets in it. */
  shownUrl?: string;
  /** Aborts the request (a stop). */
  signal?: AbortSignal;
  /** What should answer at the URL, for the advice when nothing does (nothingAnswers). */
  unreachable?: Unreachable;
}

/** What should answer at a URL and the setting that names it: "is SERVER running there, and is SETTING right?". */
export interface Unreachable {
  server: string;
  setting: string;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The URL with secrets masked, for messages. */
  shownUrl: string;
}

export async function httpRequest(request: HttpRequest): Promise<HttpResponse> {
  const url = (request.urlRule ?? checkUrl)(request.url, request.setting ?? 'URL');
  const shownUrl = request.shownUrl ?? redactUrl(url);
  const maxBytes = request.maxBytes ?? DEFAULT_MAX_BYTES;
  const guard = exchangeGuard({
    signal: request.signal,
    clock: request.clock,
    timeoutMs: request.timeoutMs,
    shownUrl,
    timeoutText: `no complete answer from ${shownUrl} within ${request.timeoutMs} ms`,
  });
  const exchange = async (): Promise<HttpResponse> => {
    const response = await (request.transport ?? wireTransport).send({
      url,
      method: request.method ?? 'GET',
      headers: {
        'user-agent': USER_AGENT,
        accept: '*/*',
        ...(request.body !== undefined ? { 'content-length': String(Buffer.byteLength(request.body)) } : {}),
        ...request.headers,
      },
      body: request.body,
      family: request.family,
      socketPath: request.socketPath,
      signal: guard.signal,
    });
    const declared = Number(response.headers['content-length']);
    if (declared > maxBytes) {
      response.body.destroy();
      throw new TransportError(
        'too-large',
        `answer from ${shownUrl} is ${declared} bytes, over the ${maxBytes}-byte limit`,
        shownUrl,
      );
    }
    const body = await readLimited(response.body, maxBytes, shownUrl);
    return { status: response.status, headers: response.headers, body, shownUrl };
  };
  try {
    return await Promise.race([exchange(), guard.deadline]);
  } catch (error) {
    throw transportFailure(error, shownUrl, guard.timedOut(), request.timeoutMs, {
      url,
      socketPath: request.socketPath,
      unreachable: request.unreachable,
    });
  } finally {
    guard.cancelDeadline();
    guard.unlink();
  }
}

/**
 * An exchange's own abort, linked to the caller's signal, and its deadline. The deadline settles
 * the exchange by itself: a transport that never answers nor fails (a dropped upgrade, a stalled
 * body) cannot leave the cycle waiting with the lock held.
 */
export function exchangeGuard(options: {
  signal: AbortSignal | undefined;
  clock: Clock | undefined;
  timeoutMs: number;
  shownUrl: string;
  timeoutText: string;
}): {
  signal: AbortSignal;
  deadline: Promise<never>;
  timedOut: () => boolean;
  cancelDeadline: () => void;
  /** Stops following the caller's signal. */
  unlink: () => void;
} {
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (options.signal?.aborted) abort();
  options.signal?.addEventListener('abort', abort, { once: true });
  let timedOut = false;
  let cancelDeadline = (): void => {};
  const deadline = new Promise<never>((_, reject) => {
    cancelDeadline = (options.clock ?? systemClock).after(options.timeoutMs, () => {
      timedOut = true;
      controller.abort();
      reject(new TransportError('timeout', options.timeoutText, options.shownUrl));
    });
  });
  return {
    signal: controller.signal,
    deadline,
    timedOut: () => timedOut,
    cancelDeadline: () => cancelDeadline(),
    unlink: () => options.signal?.removeEventListener('abort', abort),
  };
}

/**
 * Throws a TransportError for a status outside 2xx. A status the client did not ask for
 * (1xx such as 101 Switching Protocols, 3xx redirects, 304) says nothing about the request:
 * it is transient, like a 5xx (see errors.ts). `clientErrorHint` says what to check on a 4xx.
 */
export function expectSuccessStatus(
  response: HttpResponse,
  clientErrorHint = 'check the URL and credentials',
): HttpResponse {
  if (response.status >= 200 && response.status < 300) return response;
  const hint =
    response.status >= 500
      ? 'the server failed; a temporary failure'
      : response.status < 200 || response.status < 400
        ? 'a status ddedge did not ask for (redirects and upgrades are not followed); treated as temporary'
        : clientErrorHint;
  throw new TransportError(
    'status',
    `${response.shownUrl} answered HTTP ${response.status} (${hint})`,
    response.shownUrl,
    response.status,
  );
}

async function readLimited(
  body: AsyncIterable<Uint8Array> & { destroy(error?: Error): void },
  maxBytes: number,
  shownUrl: string,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      body.destroy();
      throw new TransportError('too-large', `answer from ${shownUrl} exceeded the ${maxBytes}-byte limit`, shownUrl);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}

const TLS_CODE = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_OSSL)/;

/**
 * OpenSSL's reason without its error-queue framing ("<id>:error:<code>:SSL routines:<function>:
 * <reason>:<file>:<line>:" and a line break), and what it most often means.
 */
function tlsReason(detail: string): string {
  const reason = /:SSL routines:[^:]*:([^:]+):/.exec(detail)?.[1] ?? detail.trim();
  // A plain HTTP server answers the TLS hello with text, which OpenSSL reads as a bad record.
  if (/wrong version number|packet length too long|http request/i.test(reason)) {
    return (
      `${reason}: the server answered without TLS; is this server HTTPS? (a plain HTTP server on loopback ` +
      `takes http://)`
    );
  }
  return `${reason} (trust a private CA with NODE_EXTRA_CA_CERTS)`;
}

/** Where a failed exchange went: its URL, the socket that carried it, what should have answered. */
interface Target {
  url: URL;
  socketPath?: string;
  unreachable?: Unreachable;
}

/** What a failed exchange with `shownUrl` is, as the error to throw. */
export function transportFailure(
  error: unknown,
  shownUrl: string,
  timedOut: boolean,
  timeoutMs: number,
  target?: Target,
): Error {
  // A transport wrapper's own refusal (the agent's call budget, a stop) is already what to say.
  if (error instanceof DdedgeError) return error;
  if (timedOut)
    return new TransportError('timeout', `no complete answer from ${shownUrl} within ${timeoutMs} ms`, shownUrl);
  if (error instanceof WireError) {
    return error.kind === 'malformed'
      ? new TransportError('malformed', `the answer from ${shownUrl} is not valid HTTP/1.1: ${error.message}`, shownUrl)
      : new TransportError('connection', `no complete answer from ${shownUrl}: ${error.message}`, shownUrl);
  }
  const code = String((error as { code?: unknown })?.code ?? '');
  const detail = error instanceof Error ? error.message : String(error);
  if (TLS_CODE.test(code) || /certificate|TLS|SSL/i.test(detail)) {
    return new TransportError('tls', `TLS failure talking to ${shownUrl}: ${tlsReason(detail)}`, shownUrl);
  }
  // A unix socket has no address to name; its caller says what its codes mean (engine-client.ts).
  if (code === 'ECONNREFUSED' && target && !target.socketPath)
    return new TransportError('connection', `cannot reach ${shownUrl}: ${nothingAnswers(target, code)}`, shownUrl);
  return new TransportError('connection', `cannot reach ${shownUrl}: ${code || detail}`, shownUrl);
}

/**
 * A refused connection: nothing answers at the URL's host and port (never its user name or
 * password), and, when the caller knows what should answer there, what to check.
 */
function nothingAnswers({ url, unreachable }: Target, code: string): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const check = unreachable ? `: is ${unreachable.server} running there, and is ${unreachable.setting} right?` : '';
  return `nothing answers at ${url.hostname}:${port} (${code})${check}`;
}
