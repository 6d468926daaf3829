// The few calls ddedge makes to a Docker Engine API, and nothing else, so a read-only socket
// proxy is enough: GET /_ping, GET /containers/json (running containers only) and GET /events.
// Each goes through src/http (its deadlines, size bounds and error classes) over the engine's
// unix socket or plain HTTP, unversioned, so the engine answers in its own current version.
import type { Clock } from '../../lib/clock.js';
import { parseStrictJson } from '../../lib/strict-json.js';
import { outsideText } from '../../lib/outside-text.js';
import { TransportError } from '../../http/errors.js';
import { httpRequest, type HttpResponse } from '../../http/request.js';
import { openHttpStream, type HttpStream } from '../../http/stream.js';
import type { EngineEndpoint } from './engine-url.js';
import { WATCHED_ACTIONS } from './shapes.js';

const ERROR_BODY_BYTES = 4096;
/**
 * An events stream carries nothing while no container changes; over TCP (a socket proxy) a proxy
 * recreated on another address leaves no one to close it, so probes must find it gone.
 */
const STREAM_KEEPALIVE_MS = 30_000;

export interface EngineClientOptions {
  readonly endpoint: EngineEndpoint;
  readonly setting: string;
  readonly clock: Clock;
  /** Deadline of one request, or of an events stream's head. */
  readonly timeoutMs: number;
  /** Largest listing read, in bytes. */
  readonly maxListBytes: number;
  /** Aborts whatever is in flight (the watch's stop). */
  readonly signal?: AbortSignal;
}

/** What a ping tells: the engine is there, which one, and its time (for `since`). */
export interface EnginePing {
  /** "Docker/27.3.1 (linux)", "Libpod/4.3.1 (linux)", or the API version alone. */
  readonly server: string;
  /** The engine's clock from the answer's Date header, in whole seconds, if it sent one. */
  readonly engineSeconds?: number;
}

export class EngineClient {
  constructor(private readonly options: EngineClientOptions) {}

  /** The same client, its requests aborted by `signal` (one connection's). */
  withSignal(signal: AbortSignal): EngineClient {
    return new EngineClient({ ...this.options, signal });
  }

  /** The engine's URL as the user gave it, secrets masked. */
  get shown(): string {
    return this.options.endpoint.shown;
  }

  async ping(): Promise<EnginePing> {
    const response = await this.get('/_ping', 4096);
    const apiVersion = header(response, 'api-version');
    if (!apiVersion) {
      throw new TransportError(
        'malformed',
        `${this.options.endpoint.shown} answered /_ping without an Api-Version header: is it a Docker Engine API?`,
        this.options.endpoint.shown,
      );
    }
    const date = Date.parse(header(response, 'date') ?? '');
    return {
      server: outsideText(header(response, 'server') ?? `API ${apiVersion}`, 80),
      engineSeconds: Number.isNaN(date) ? undefined : Math.floor(date / 1000),
    };
  }

  /** The running containers (paused ones too: the engine counts them as running), as JSON. */
  async listRunning(id?: string): Promise<unknown> {
    const query = id === undefined ? '' : `?filters=${encodeURIComponent(JSON.stringify({ id: [id] }))}`;
    const response = await this.get(`/containers/json${query}`, this.options.maxListBytes);
    try {
      return parseStrictJson(response.body);
    } catch (error) {
      throw new TransportError(
        'malformed',
        `the container listing from ${this.options.endpoint.shown} is not JSON: ${(error as Error).message}`,
        this.options.endpoint.shown,
      );
    }
  }

  /** The stream of container starts and stops, from `sinceSeconds` (engine time) when given. */
  async openEvents(sinceSeconds?: number): Promise<HttpStream> {
    const filters = encodeURIComponent(JSON.stringify({ type: ['container'], event: WATCHED_ACTIONS }));
    const since = sinceSeconds === undefined ? '' : `&since=${sinceSeconds}`;
    const stream = await withHint(
      openHttpStream({ ...this.common(`/events?filters=${filters}${since}`), keepAliveMs: STREAM_KEEPALIVE_MS }),
    );
    if (stream.status !== 200) throw this.statusError(stream.status, '/events', await this.errorBody(stream));
    return stream;
  }

  /** The first bytes of a refused stream's body (the engine's message), read within the deadline. */
  private async errorBody(stream: HttpStream): Promise<string> {
    const cancel = this.options.clock.after(this.options.timeoutMs, () => stream.close());
    let body = '';
    try {
      for await (const line of stream.lines(ERROR_BODY_BYTES)) {
        if ('text' in line) body += line.text;
        if (body.length >= ERROR_BODY_BYTES || 'tooLong' in line) break;
      }
    } catch {
      // what arrived is enough
    } finally {
      cancel();
      stream.close();
    }
    return body;
  }

  private async get(path: string, maxBytes: number): Promise<HttpResponse> {
    const response = await withHint(httpRequest({ ...this.common(path), maxBytes }));
    if (response.status !== 200) throw this.statusError(response.status, path, response.body);
    return response;
  }

  private common(path: string) {
    const { endpoint, setting, clock, timeoutMs, signal } = this.options;
    return {
      url: `${endpoint.base}${path}`,
      socketPath: endpoint.socketPath,
      shownUrl: `${endpoint.shown} (GET ${path.split('?')[0]})`,
      // The endpoint was judged when the setting was read (engine-url.ts).
      urlRule: (text: string) => new URL(text),
      setting,
      unreachable: { server: 'the engine (or the socket proxy)', setting },
      clock,
      timeoutMs,
      signal,
      headers: { accept: 'application/json' },
    };
  }

  /** The engine's own message ({"message": "..."}) when it gave one, escaped and bounded. */
  private statusError(status: number, path: string, body: string): TransportError {
    let message = '';
    try {
      const parsed = JSON.parse(body) as { message?: unknown };
      if (typeof parsed?.message === 'string') message = `: ${outsideText(parsed.message, 200)}`;
    } catch {
      // not the engine's JSON error: the status alone says it
    }
    const hint = status === 403 ? ' (a socket proxy refusing the call? it must allow this one)' : '';
    return new TransportError(
      'status',
      `${this.options.endpoint.shown} answered HTTP ${status} to GET ${path.split('?')[0]}${message}${hint}`,
      this.options.endpoint.shown,
      status,
    );
  }
}

const HINTS: Record<string, string> = {
  ENOENT: 'no socket there: is the engine running, and the socket mounted into this container?',
  EACCES: 'no permission on the socket: run ddedge as a member of its group (docker), or use a socket proxy',
  // Over TCP, src/http says so with the address (`unreachable` above); this is a socket's.
  ECONNREFUSED: 'nothing listens there: is the engine (or the socket proxy) running?',
};

/** A connection failure with what its system code most often means. */
async function withHint<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    const code = error instanceof TransportError ? /: ([A-Z]+)$/.exec(error.message)?.[1] : undefined;
    const hint = code && HINTS[code];
    if (!hint || !(error instanceof TransportError)) throw error;
    throw new TransportError(error.kind, `${error.message} (${hint})`, error.url, error.status);
  }
}

function header(response: HttpResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
