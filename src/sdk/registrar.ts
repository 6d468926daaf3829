// The SDK's face: `new Registrar({ url, user, password })`, then one typed method per
// operation of the table — `registrar.domain.getInfo({ domain, infoType })` — and, for
// list operations, `.all()`, `.pages()` and `.collect({ limit })` that follow the pages.
import { ApiClient, type ApiClientOptions, type Page } from '../api/client.js';
import type { ContactInput } from '../api/endpoints/contact-fields.js';
import { API, type Api } from '../api/endpoints/index.js';
import type { ZoneRecord } from '../api/endpoints/service.js';
import type { Endpoint, QueryInfo, ResultOf } from '../api/endpoints/types.js';
import type { Params, ParamsOf } from '../api/params.js';

/** Conveniences the SDK accepts besides the API's own parameters. */
export interface SdkExtras {
  /** Domain contacts, as data or as an existing contact ID (create, transfer, update, updatecontacts). */
  owner?: ContactInput | string;
  admin?: ContactInput | string;
  tech?: ContactInput | string;
  billing?: ContactInput | string;
  /** SSL contacts (create, renew). */
  adminContact?: ContactInput;
  techContact?: ContactInput;
  orgContact?: ContactInput;
  /** service/dnssetzone: the zone's records; sent as Base64 of JSON. */
  records?: ZoneRecord[];
  /** Multi-domain certificates: alt_name_1, alt_validation_1, … */
  [altName: `alt_name_${number}`]: string;
  [altValidation: `alt_validation_${number}`]: string;
  /** TLD extras for .jobs (jobsOwnerWebsite, …). */
  [jobs: `jobs${string}`]: string | boolean;
  /** Contact fields given one by one (ownerContactFirstName, adminContactEmail, …). */
  [contactField: `${'owner' | 'admin' | 'tech' | 'billing' | 'org'}Contact${string}`]: string | ContactInput | undefined;
}

type ParamsOfEndpoint<E> = E extends Endpoint<infer P, unknown> ? ParamsOf<P> & SdkExtras : never;
type ItemOf<R> = { [K in Exclude<keyof R, 'queryInfo'>]: R[K] extends (infer I)[] ? I : never }[Exclude<keyof R, 'queryInfo'>];
type Call<E> = {} extends ParamsOfEndpoint<E> ? (params?: ParamsOfEndpoint<E>) => Promise<ResultOf<E>> : (params: ParamsOfEndpoint<E>) => Promise<ResultOf<E>>;

export interface ListHelpers<P, I> {
  /** Every item, page after page. */
  all(params?: P): AsyncIterable<I>;
  /** Every page with its queryInfo. */
  pages(params?: P): AsyncIterable<Page<I>>;
  /** Up to `limit` items (a limit is required: lists can be long, and the provider watches for bulk use). */
  collect(params: P | undefined, options: { limit: number }): Promise<I[]>;
}

export type Method<E> = Call<E> & (ResultOf<E> extends { queryInfo: QueryInfo } ? ListHelpers<ParamsOfEndpoint<E>, ItemOf<ResultOf<E>>> : unknown);
export type ModuleMethods<M> = { [K in keyof M]: Method<M[K]> };

export type RegistrarOptions = ApiClientOptions;

export class Registrar {
  readonly tool: ModuleMethods<Api['tool']>;
  readonly account: ModuleMethods<Api['account']>;
  readonly domain: ModuleMethods<Api['domain']>;
  readonly contact: ModuleMethods<Api['contact']>;
  readonly service: ModuleMethods<Api['service']>;
  readonly ssl: ModuleMethods<Api['ssl']>;
  /** The client underneath, for calls by name: `registrar.client.call('domain', API.domain.getInfo, …)`. */
  readonly client: ApiClient;

  constructor(options: RegistrarOptions) {
    this.client = new ApiClient(options);
    this.tool = methodsOf(this.client, 'tool', API.tool);
    this.account = methodsOf(this.client, 'account', API.account);
    this.domain = methodsOf(this.client, 'domain', API.domain);
    this.contact = methodsOf(this.client, 'contact', API.contact);
    this.service = methodsOf(this.client, 'service', API.service);
    this.ssl = methodsOf(this.client, 'ssl', API.ssl);
  }

  /** Closes the connection pool. */
  close(): Promise<void> {
    return this.client.close();
  }
}

function methodsOf<M extends Record<string, Endpoint>>(client: ApiClient, module: string, table: M): ModuleMethods<M> {
  const methods: Record<string, unknown> = {};
  for (const [name, endpoint] of Object.entries(table)) {
    const call = (params: Params = {}) => client.call(module, endpoint, params);
    if (endpoint.listKey) {
      Object.assign(call, {
        all: (params: Params = {}) => client.items(module, endpoint, params),
        pages: (params: Params = {}) => client.pages(module, endpoint, params),
        collect: async (params: Params = {}, options: { limit: number }) => {
          if (!options || !Number.isInteger(options.limit) || options.limit < 1) throw new TypeError('collect() needs { limit } of at least 1');
          const items: unknown[] = [];
          for await (const item of client.items(module, endpoint, params)) {
            items.push(item);
            if (items.length >= options.limit) break;
          }
          return items;
        },
      });
    }
    methods[name] = call;
  }
  return methods as ModuleMethods<M>;
}
