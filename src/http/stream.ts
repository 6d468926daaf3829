// An answer read as it comes, for the one long-lived request ddedge follows: a container
// engine's events. The deadline covers the connection and the answer's head only; the body then
// runs until the server ends it or the caller closes it, read one line at a time with a bound on
// each line, so a server cannot make the reader buffer without end. Same policy as request.ts:
// the URL rule, a User-Agent, errors naming the URL with its secrets masked.
import type { Clock } from '../lib/clock.js';
import { redactUrl } from '../lib/redact.js';
import { USER_AGENT } from '../lib/version.js';
import { exchangeGuard, transportFailure, type Unreachable } from './request.js';
import type { Transport, WireResponse } from './transport.js';
import { checkUrl } from './url-policy.js';
import { wireTransport } from './wire-transport.js';

export interface HttpStreamRequest {
  url: string;
  headers?: Record<string, string>;
  /** How long the connection and the answer's head may take; the body has no deadline. */
  timeoutMs: number;
  /** Names the URL's setting in errors. */
  setting?: string;
  clock?: Clock;
  socketPath?: string;
  urlRule?: (text: string, setting: string) => URL;
  /** How messages name the target when its URL would mislead (a unix socket's); no secrets in it. */
  shownUrl?: string;
  transport?: Transport;
  /** Aborts the request, before or after its head. */
  signal?: AbortSignal;
  /** TCP keepalive probes after this long without a byte: the stream itself may be quiet for days. */
  keepAliveMs?: number;
  /** What should answer at the URL, for the advice when nothing does. */
  unreachable?: Unreachable;
}

/** One line of the body, without its line end; a line over the bound is given as its size only. */
export type StreamLine = { readonly text: string } | { readonly tooLong: number };

export interface HttpStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The URL with secrets masked, for messages. */
  shownUrl: string;
  /** The body's lines in order; ends when the server ends the body or close() is called. Once only. */
  lines(maxLineBytes: number): AsyncIterable<StreamLine>;
  /** Ends the connection (harmless once ended). */
  close(): void;
}

export async function openHttpStream(request: HttpStreamRequest): Promise<HttpStream> {
  const url = (request.urlRule ?? checkUrl)(request.url, request.setting ?? 'URL');
  const shownUrl = request.shownUrl ?? redactUrl(url);
  const guard = exchangeGuard({
    signal: request.signal,
    clock: request.clock,
    timeoutMs: request.timeoutMs,
    shownUrl,
    timeoutText: `no answer from ${shownUrl} within ${request.timeoutMs} ms`,
  });
  const send = (request.transport ?? wireTransport).send({
    url,
    method: 'GET',
    headers: { 'user-agent': USER_AGENT, accept: '*/*', ...request.headers },
    socketPath: request.socketPath,
    keepAliveMs: request.keepAliveMs,
    signal: guard.signal,
  });
  let response: WireResponse;
  try {
    response = await Promise.race([send, guard.deadline]);
  } catch (error) {
    guard.unlink();
    throw transportFailure(error, shownUrl, guard.timedOut(), request.timeoutMs, {
      url,
      socketPath: request.socketPath,
      unreachable: request.unreachable,
    });
  } finally {
    guard.cancelDeadline();
  }
  const close = () => {
    guard.unlink();
    response.body.destroy();
  };
  return {
    status: response.status,
    headers: response.headers,
    shownUrl,
    lines: (maxLineBytes) => linesOf(response.body, maxLineBytes, shownUrl),
    close,
  };
}

/** Splits the body at each LF (a CR before it is dropped); never holds more than one line's bound. */
async function* linesOf(
  body: AsyncIterable<Uint8Array>,
  maxLineBytes: number,
  shownUrl: string,
): AsyncGenerator<StreamLine> {
  let parts: Buffer[] = [];
  let size = 0;
  const line = (): StreamLine => {
    if (size > maxLineBytes) return { tooLong: size };
    const text = Buffer.concat(parts).toString('utf8');
    return { text: text.endsWith('\r') ? text.slice(0, -1) : text };
  };
  try {
    for await (const chunk of body) {
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      let start = 0;
      for (let end = bytes.indexOf(10, start); end >= 0; end = bytes.indexOf(10, start)) {
        size += end - start;
        if (size <= maxLineBytes) parts.push(bytes.subarray(start, end));
        yield line();
        parts = [];
        size = 0;
        start = end + 1;
      }
      size += bytes.length - start;
      // A copy: the rest of the line must not keep the whole chunk alive.
      if (size <= maxLineBytes) parts.push(Buffer.from(bytes.subarray(start)));
      else parts = [];
    }
  } catch (error) {
    throw transportFailure(error, shownUrl, false, 0);
  }
  if (size > 0) yield line();
}
