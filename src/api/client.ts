// The registrar API client: form-encoded POST to <api-url>/<module>/<action>/ with the
// credentials, validated against the endpoint table before anything is sent, retried only
// where repeating can do no harm.
import type { Dispatcher } from 'undici';
import { TransportError } from '../http/errors.js';
import { expectSuccessStatus, httpRequest, type HttpResponse } from '../http/request.js';
import type { Transport } from '../http/transport.js';
import { silentLogger, type Logger } from '../lib/log.js';
import { registerSecret } from '../lib/redact.js';
import { flattenContacts } from './endpoints/contact-fields.js';
import type { Endpoint, QueryInfo, ResultOf } from './endpoints/types.js';
import { AnswerShapeError } from '../lib/answer-shape.js';
import { readResponseData } from './answers.js';
import { parseJsonEnvelope, throwIfFailed, type Envelope } from './envelope.js';
import { PagingError } from './errors.js';
import { normalizeResult } from './normalize.js';
import { toFormFields, type Params } from './params.js';
import { parseXmlEnvelope } from './xml-envelope.js';

/** What should answer at --api-url: named when nothing does. */
const API_SERVER = { server: 'the registrar API (or ddedge sandbox)', setting: '--api-url / DDEDGE_API_URL' };
/**
 * Pages a listing that gives no `total` may take (a server that never says how much there is
 * must not turn into a flood); SDK users can raise it.
 */
const MAX_PAGES = 8;
/** Pages beyond what `total` announces before the listing is called endless. */
const PAGE_MARGIN = 2;
/** Pages any one listing may take, whatever `total` says: 500,000 entries in pages of 1,000. */
const MAX_COUNTED_PAGES = 500;

/** The API version this client was written against; newer major or minor answers get a warning. */
const KNOWN_API_VERSION = [1, 1] as const;

/** What undici's dispatchers have in common (undici is an optional peer dependency of the SDK). */
interface DispatcherLike {
  dispatch(...args: never[]): unknown;
}

export interface ApiClientOptions {
  /** Base URL, e.g. https://simple-api.dondominio.net (https required except on loopback). */
  url: string;
  user: string;
  password: string;
  /** Per request; default 15 s, as the provider's SDK. */
  timeoutMs?: number;
  /** Answer format asked of the API; both are read into the same typed result. */
  outputFormat?: 'json' | 'xml';
  /**
   * An undici Dispatcher (an Agent, a ProxyAgent, a MockAgent in tests); default a pool of at most
   * 3 connections per origin. Typed by its shape, so that the SDK's types need no undici.
   */
  dispatcher?: DispatcherLike;
  logger?: Logger;
  /**
   * What a rejection of the credentials advises checking (default: the user and password given to new Registrar(); for
   * an ApiClient made directly, the command line's DDEDGE_API_USER and DDEDGE_API_PASSWORD).
   */
  authAdvice?: string;
  /**
   * Attempts for idempotent operations on transport errors and 5xx (default 3). Calls that spend balance are never
   * retried.
   */
  attempts?: number;
  /** Largest answer accepted, in bytes (default 8 MiB: lists can be long). */
  maxBytes?: number;
  /**
   * Pages a listing without a `total` may take before it stops with a PagingError (default 8).
   * A listing that announces its `total` is followed to it (plus 2 pages), up to 500 pages.
   */
  maxPages?: number;
  /** Carries the requests instead of the pool built from `dispatcher` (the agent wraps it to count its calls). */
  transport?: Transport;
}

export interface Page<T> {
  items: T[];
  queryInfo: QueryInfo;
}

export class ApiClient {
  private readonly transport: Transport;
  private readonly logger: Logger;
  private warnedVersion = false;

  constructor(private readonly options: ApiClientOptions) {
    registerSecret(options.password);
    this.transport = options.transport ?? lazyUndici(options.dispatcher as Dispatcher | undefined);
    this.logger = options.logger ?? silentLogger;
  }

  /** Calls one operation and returns its responseData, or throws ApiError/TransportError/ValidationError. */
  async call<E extends Endpoint>(module: string, endpoint: E, params: Params = {}): Promise<ResultOf<E>> {
    return (await this.callRaw(module, endpoint, params)).responseData as ResultOf<E>;
  }

  /** As call(), returning the whole envelope. */
  async callRaw(module: string, endpoint: Endpoint, params: Params = {}): Promise<Envelope> {
    const operation = `${module}/${endpoint.action}`;
    const fields = toFormFields(operation, endpoint.params, prepareParams(endpoint, params), endpoint.rules);
    const format = this.options.outputFormat ?? 'json';
    const body = new URLSearchParams({
      apiuser: this.options.user,
      apipasswd: this.options.password,
      'output-format': format,
      'output-pretty': 'false',
      ...fields,
    }).toString();
    const base = this.options.url.endsWith('/') ? this.options.url : `${this.options.url}/`;
    const attempts = endpoint.idempotent && !endpoint.spends ? (this.options.attempts ?? 3) : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        this.logger.debug('api call', { operation, attempt });
        const response = expectSuccessStatus(
          await httpRequest({
            url: new URL(`${module}/${endpoint.action}/`, base).toString(),
            method: 'POST',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              accept: format === 'xml' ? 'application/xml' : 'application/json',
            },
            body,
            timeoutMs: this.options.timeoutMs ?? 15_000,
            maxBytes: this.options.maxBytes ?? 8 * 1024 * 1024,
            setting: '--api-url',
            unreachable: API_SERVER,
            transport: this.transport,
          }),
        );
        const envelope = this.parse(response, format);
        this.checkVersion(envelope.version);
        throwIfFailed(envelope, operation, this.options.authAdvice);
        return {
          ...envelope,
          responseData: this.read(response, operation, endpoint, normalizeResult(envelope.responseData), format),
        };
      } catch (error) {
        if (attempt >= attempts || !isRetryable(error)) throw error;
        const delay = Math.min(4000, 250 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
        this.logger.debug('retrying api call', {
          operation,
          reason: (error as Error).message,
          delayMs: Math.round(delay),
        });
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  /**
   * Every page of a list operation. Stops at whichever comes first: an empty page, a short
   * page (fewer items than the page length asked or announced), `total` reached, or the same
   * page again (a server ignoring `page`). It throws a PagingError rather than call without
   * end: past `maxPages` when the API gives no `total`, past the pages `total` needs (+2) when
   * it does, and past 500 pages in any case.
   */
  async *pages<T>(module: string, endpoint: Endpoint, params: Params = {}): AsyncGenerator<Page<T>> {
    const key = endpoint.listKey;
    if (!key) throw new TypeError(`${module}/${endpoint.action} is not a list operation`);
    const operation = `${module}/${endpoint.action}`;
    let maxPages = this.options.maxPages ?? MAX_PAGES;
    const first = Number(params.page ?? 1);
    const asked = params.pageLength === undefined ? undefined : Number(params.pageLength);
    let seen = 0;
    let previous: string | undefined;
    for (let n = 0; ; n++) {
      const page = first + n;
      if (n >= maxPages)
        throw new PagingError(
          `${operation}: stopped after ${maxPages} pages and the API still announced more; narrow the query (a ` +
            `filter, a larger pageLength)`,
        );
      const data = (await this.call(module, endpoint, { ...params, page })) as Record<string, unknown>;
      const items = data[key] as T[];
      const info = (data.queryInfo ?? {}) as Partial<QueryInfo>;
      const total = info.total;
      if (n === 0 && typeof total === 'number' && Number.isSafeInteger(total) && total > 0 && items.length) {
        // The API said how much there is: follow it (a zone of 10,000 entries is 10 pages), within a bound.
        // The first page's real length, not the one asked: a provider may shorten its pages.
        const needed = Math.ceil(total / items.length);
        maxPages = Math.min(MAX_COUNTED_PAGES, Math.max(maxPages, needed + PAGE_MARGIN));
      }
      const fingerprint = JSON.stringify(items);
      if (items.length && fingerprint === previous) {
        if (total !== undefined && seen < total)
          throw new PagingError(
            `${operation}: the API answered page ${page} with the entries of page ${page - 1} (${seen} of ${total} ` +
              `seen); its paging cannot be trusted`,
          );
        this.logger.debug('the API repeated a page; the listing ends here', { operation, page });
        return;
      }
      previous = fingerprint;
      seen += items.length;
      yield {
        items,
        queryInfo: {
          page,
          pageLength: info.pageLength ?? items.length,
          results: info.results ?? items.length,
          total: total ?? seen,
        },
      };
      const length = asked ?? info.pageLength;
      if (
        items.length === 0 ||
        (total !== undefined && seen >= total) ||
        (length !== undefined && items.length < length)
      )
        return;
    }
  }

  /** Every item of a list operation, page after page. */
  async *items<T>(module: string, endpoint: Endpoint, params: Params = {}): AsyncGenerator<T> {
    for await (const page of this.pages<T>(module, endpoint, params)) yield* page.items;
  }

  async close(): Promise<void> {
    await this.transport.close?.();
  }

  private parse(response: HttpResponse, format: 'json' | 'xml'): Envelope {
    try {
      return format === 'xml' ? parseXmlEnvelope(response.body) : parseJsonEnvelope(response.body);
    } catch (error) {
      throw malformed(error, response);
    }
  }

  private read(
    response: HttpResponse,
    operation: string,
    endpoint: Endpoint,
    data: unknown,
    format: 'json' | 'xml',
  ): unknown {
    try {
      return readResponseData(operation, endpoint, data, format === 'xml');
    } catch (error) {
      throw malformed(error, response);
    }
  }

  private checkVersion(version: string): void {
    const [major, minor] = version.split('.').map(Number);
    if (this.warnedVersion || major === undefined || Number.isNaN(major)) return;
    if (major > KNOWN_API_VERSION[0] || (major === KNOWN_API_VERSION[0] && (minor ?? 0) > KNOWN_API_VERSION[1])) {
      this.warnedVersion = true;
      this.logger.warn(
        `the API answered with version ${version}, newer than the ${KNOWN_API_VERSION.join('.')} ddedge knows; ` +
          `results may differ`,
      );
    }
  }
}

/** SDK conveniences (contact objects, dnssetzone records) into the API's own parameters. */
export function prepareParams(endpoint: Endpoint, params: Params): Params {
  let prepared = endpoint.prepare ? endpoint.prepare(params) : params;
  if (endpoint.contactRoles) {
    // Domain roles are `owner` -> ownerContact…; SSL roles are already `adminContact`.
    prepared = flattenContacts(prepared, endpoint.contactRoles, (role) =>
      role.endsWith('Contact') ? role : `${role}Contact`,
    );
  }
  return prepared;
}

/** undici, loaded on the first request: a client given its own transport never loads it (~100 ms). */
function lazyUndici(dispatcher?: Dispatcher): Transport {
  let pool: Promise<Transport> | undefined;
  const get = () => (pool ??= import('../http/undici-transport.js').then((m) => m.undiciTransport(dispatcher)));
  return {
    send: async (request) => (await get()).send(request),
    close: async () => void (pool && (await (await pool).close?.())),
  };
}

function malformed(error: unknown, response: HttpResponse): unknown {
  if (!(error instanceof AnswerShapeError)) return error;
  return new TransportError(
    'malformed',
    `malformed answer from ${response.shownUrl}: ${error.message}`,
    response.shownUrl,
  );
}

function isRetryable(error: unknown): boolean {
  if (!(error instanceof TransportError)) return false;
  if (error.kind === 'status') return (error.status ?? 0) >= 500;
  return error.kind === 'timeout' || error.kind === 'connection';
}
