// The registrar API client: form-encoded POST to <api-url>/<module>/<action>/ with the
// credentials, validated against the endpoint table before anything is sent.
import type { Dispatcher } from 'undici';
import { TransportError } from '../http/errors.js';
import { expectSuccessStatus, httpRequest, type HttpResponse } from '../http/request.js';
import type { Transport } from '../http/transport.js';
import { undiciTransport } from '../http/undici-transport.js';
import { silentLogger, type Logger } from '../log.js';
import { registerSecret } from '../redact.js';
import { MalformedEnvelope, parseJsonEnvelope, throwIfFailed, type Envelope } from './envelope.js';
import type { Endpoint } from './endpoints/types.js';
import { toFormFields, type Params } from './params.js';
import type { QueryInfo } from './endpoints/service.js';

/** The API version this client was written against; newer major or minor answers get a warning. */
export const KNOWN_API_VERSION = [1, 1] as const;

export interface ApiClientOptions {
  url: string;
  user: string;
  password: string;
  timeoutMs?: number;
  /** undici dispatcher (a MockAgent in tests); default a pool of at most 3 connections per origin. */
  dispatcher?: Dispatcher;
  logger?: Logger;
  /** Attempts for idempotent operations on transport errors and 5xx (default 3). */
  attempts?: number;
}

export class ApiClient {
  private readonly transport: Transport;
  private readonly logger: Logger;
  private warnedVersion = false;

  constructor(private readonly options: ApiClientOptions) {
    registerSecret(options.password);
    this.transport = undiciTransport(options.dispatcher);
    this.logger = options.logger ?? silentLogger;
  }

  /** Calls one operation and returns its responseData, or throws ApiError/TransportError/ValidationError. */
  async call<T = unknown>(module: string, action: string, endpoint: Endpoint, params: Params = {}): Promise<T> {
    return (await this.callRaw(module, action, endpoint, params)).responseData as T;
  }

  /** As call(), returning the whole envelope. */
  async callRaw(module: string, action: string, endpoint: Endpoint, params: Params = {}): Promise<Envelope> {
    const operation = `${module}/${action}`;
    const fields = toFormFields(operation, endpoint.params, params);
    const body = new URLSearchParams({
      apiuser: this.options.user,
      apipasswd: this.options.password,
      'output-format': 'json',
      'output-pretty': 'false',
      ...fields,
    }).toString();
    const base = this.options.url.endsWith('/') ? this.options.url : `${this.options.url}/`;
    const attempts = endpoint.idempotent ? (this.options.attempts ?? 3) : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        this.logger.debug('api call', { operation, attempt });
        const response = expectSuccessStatus(
          await httpRequest({
            url: new URL(`${module}/${action}/`, base).toString(),
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
            body,
            timeoutMs: this.options.timeoutMs ?? 15_000,
            setting: '--api-url',
            transport: this.transport,
          }),
        );
        const envelope = this.parse(response);
        this.checkVersion(envelope.version);
        throwIfFailed(envelope, operation);
        return envelope;
      } catch (error) {
        if (attempt >= attempts || !isRetryable(error)) throw error;
        const delay = Math.min(4000, 250 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
        this.logger.debug('retrying api call', { operation, reason: (error as Error).message, delayMs: Math.round(delay) });
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  /** Every page of a list operation, following queryInfo until `total` is reached. */
  async *pages<T>(module: string, action: string, endpoint: Endpoint, params: Params = {}): AsyncGenerator<{ items: T[]; queryInfo: QueryInfo }> {
    const key = endpoint.listKey!;
    let seen = 0;
    for (let page = Number(params.page ?? 1); ; page++) {
      const data = await this.call<Record<string, unknown>>(module, action, endpoint, { ...params, page });
      const items = (Array.isArray(data[key]) ? data[key] : []) as T[];
      const queryInfo = (data.queryInfo ?? { page, pageLength: items.length, results: items.length, total: items.length }) as QueryInfo;
      seen += items.length;
      yield { items, queryInfo };
      if (items.length === 0 || seen >= Number(queryInfo.total)) return;
    }
  }

  async close(): Promise<void> {
    await this.transport.close?.();
  }

  private parse(response: HttpResponse): Envelope {
    try {
      return parseJsonEnvelope(response.body);
    } catch (error) {
      if (!(error instanceof MalformedEnvelope)) throw error;
      throw new TransportError('malformed', `malformed answer from ${response.shownUrl}: ${error.message}`, response.shownUrl);
    }
  }

  private checkVersion(version: string): void {
    const [major, minor] = version.split('.').map(Number);
    if (this.warnedVersion || major === undefined || Number.isNaN(major)) return;
    if (major > KNOWN_API_VERSION[0] || (major === KNOWN_API_VERSION[0] && (minor ?? 0) > KNOWN_API_VERSION[1])) {
      this.warnedVersion = true;
      this.logger.warn(`the API answered with version ${version}, newer than the ${KNOWN_API_VERSION.join('.')} ddedge knows; results may differ`);
    }
  }
}

function isRetryable(error: unknown): boolean {
  if (!(error instanceof TransportError)) return false;
  if (error.kind === 'status') return (error.status ?? 0) >= 500;
  return error.kind === 'timeout' || error.kind === 'connection';
}
