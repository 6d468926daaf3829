// HTTP/1.1 straight over node:tls (node:net for loopback http), for the agent's few small
// requests: address sources, dynamic DNS, heartbeats. One connection per request, closed once
// the answer is read, as a cycle talks to each host once. Node's http module costs a cycle
// about 11 ms of start-up (its modules, the llhttp parser, the agent) for two GETs, more than
// the rest of the cycle's own work; undici costs far more (see docs/performance.md). The API
// keeps undici: it pools connections and takes the dispatcher SDK users inject.
// Loaded on the first request: a cycle answered from the cache never pays for TLS.
import type { Socket } from 'node:net';
import type { SecureContext } from 'node:tls';
import { familyOfAddress } from '../lib/address.js';
import { moduleOf } from '../lib/lazy-import.js';
import type { Transport, WireRequest, WireResponse } from './transport.js';
import { ResponseReader, WireError, type ResponseHeaders } from './wire-response.js';

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const UNSAFE_VALUE = /[\0\r\n]/;
/** Unread body bytes held before the socket is paused; request.ts reads as they come. */
const HIGH_WATER = 64 * 1024;
/**
 * How long a finished connection may stay open before it is closed from this side. Short: in
 * a daemon each lingering connection keeps its TLS state, and at 2 s a run of forced cycles
 * held hundreds of them (bench/soak.mjs); a one-shot command exits before it matters.
 */
const LINGER_MS = 100;

let secureContext: SecureContext | undefined;

export const wireTransport: Transport = {
  async send(request: WireRequest): Promise<WireResponse> {
    const head = requestHead(request);
    const { url } = request;
    const secure = url.protocol === 'https:';
    // A literal IPv6 host comes bracketed; the socket wants the bare address.
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const port = Number(url.port) || (secure ? 443 : 80);
    // Half-open allowed: the server's close after its answer leaves the socket to us. Node
    // would end and destroy it at once, and destroying a socket makes process.stderr (net.js
    // compares the socket with it), ~1 ms of a cycle; done() below closes it later instead.
    const target = { host, port, allowHalfOpen: true, ...(request.family ? { family: request.family } : {}) };
    let socket: Socket;
    if (secure) {
      const tls = await moduleOf(import('node:tls'));
      // One context (the default trust: Node's roots and NODE_EXTRA_CA_CERTS) for every
      // connection: tls.connect would build a new one for each, ~1 ms apiece.
      secureContext ??= tls.createSecureContext();
      // SNI names a host; an address literal is sent without it (RFC 6066 §3).
      socket = tls.connect({
        ...target,
        secureContext,
        ...(familyOfAddress(host) === undefined ? { servername: host } : {}),
      });
    } else {
      const net = await moduleOf(import('node:net'));
      socket = net.connect(request.socketPath ? { path: request.socketPath, allowHalfOpen: true } : target);
    }
    // A peer that vanished without a word (its host or network gone) is noticed by the probes.
    if (request.keepAliveMs !== undefined) socket.setKeepAlive(true, request.keepAliveMs);
    return exchange(socket, head, request);
  },
};

/** The request line and headers; a header that could split the request is refused. */
function requestHead(request: WireRequest): string {
  const lines = [
    `${request.method} ${request.url.pathname}${request.url.search} HTTP/1.1`,
    `host: ${request.url.host}`,
    'connection: close',
  ];
  for (const [name, value] of Object.entries({ ...urlCredentials(request), ...request.headers })) {
    // The value is never named: it may be a credential.
    if (!TOKEN.test(name) || UNSAFE_VALUE.test(value))
      throw new Error(`the request header ${TOKEN.test(name) ? name : '(invalid name)'} holds a line break or a NUL`);
    lines.push(`${name}: ${value}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n${request.body ?? ''}`;
}

/**
 * A URL's user-info (https://user:pass@host/, a source or monitor behind Basic authentication)
 * as the Authorization header node:https made of it, unless the caller sets its own.
 */
function urlCredentials({ url, headers }: WireRequest): Record<string, string> {
  if (!url.username && !url.password) return {};
  if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) return {};
  return {
    authorization: `Basic ${Buffer.from(`${decoded(url.username)}:${decoded(url.password)}`).toString('base64')}`,
  };
}

/** Percent-decoded; a stray '%' that starts no escape is kept as it is. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function exchange(socket: Socket, head: string, request: WireRequest): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    let body: ResponseBody | undefined;
    const fail = (error: Error) => {
      if (body) body.fail(error);
      else reject(error);
      socket.destroy();
    };
    const reader = new ResponseReader({
      head(status: number, headers: ResponseHeaders) {
        body = new ResponseBody(socket);
        resolve({ status, headers, body });
      },
      body: (chunk) => body!.push(chunk),
      done() {
        body!.finish();
        // The server closes the connection (we asked it to); tearing a TLS socket down here
        // costs a cycle about 0.7 ms each, and a one-shot command exits before it matters.
        // A server that keeps the connection open has it closed a little later.
        socket.unref();
        setTimeout(() => socket.destroy(), LINGER_MS).unref();
      },
    });
    const abort = () =>
      fail(Object.assign(new Error('the request was aborted'), { name: 'AbortError', code: 'ABORT_ERR' }));
    if (request.signal.aborted) return abort();
    request.signal.addEventListener('abort', abort, { once: true });
    socket.once('close', () => {
      request.signal.removeEventListener('abort', abort);
      fail(new WireError('incomplete', 'the connection closed before the whole answer arrived'));
    });
    socket.on('error', fail);
    socket.on('end', () => {
      try {
        reader.end();
      } catch (error) {
        fail(error as Error);
      }
    });
    socket.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk);
      } catch (error) {
        fail(error as Error);
      }
    });
    // Not end(): a TLS close_notify after the request makes some servers drop it unanswered.
    socket.write(head);
  });
}

/** The answer's body as request.ts reads it: chunks in order, then the end or the failure. */
class ResponseBody implements AsyncIterable<Uint8Array> {
  private readonly chunks: Buffer[] = [];
  private queued = 0;
  private ended = false;
  private error: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly socket: Socket) {}

  push(chunk: Buffer): void {
    if (this.ended) return;
    this.chunks.push(chunk);
    this.queued += chunk.length;
    if (this.queued > HIGH_WATER) this.socket.pause();
    this.notify();
  }

  finish(): void {
    this.ended = true;
    this.notify();
  }

  /** A failure after the whole body has arrived changes nothing. */
  fail(error: Error): void {
    if (!this.ended) this.error ??= error;
    this.notify();
  }

  destroy(): void {
    this.ended = true;
    this.chunks.length = 0;
    this.socket.destroy();
    this.notify();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    // Each turn yields a chunk, ends, throws, or waits for the socket's next event.
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk) {
        this.queued -= chunk.length;
        if (this.queued <= HIGH_WATER / 2) this.socket.resume();
        yield chunk;
      } else if (this.error) throw this.error;
      else if (this.ended) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
