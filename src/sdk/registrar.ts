// The SDK's face: `new Registrar({ url, user, password })`, then one typed method per
// operation of the table — `registrar.domain.getInfo({ domain, infoType })` — and, for
// list operations, `.all()`, `.pages()` and `.collect({ limit })` that follow the pages.
import { ApiClient, type ApiClientOptions, type Page } from '../api/client.js';
import type { ContactInput } from '../api/endpoints/contact-fields.js';
import { API, type Api } from '../api/endpoints/index.js';
import type { ZoneRecord } from '../api/endpoints/service.js';
import type { Endpoint, QueryInfo, ResultOf } from '../api/endpoints/types.js';
import type { Params, ParamsOf } from '../api/params.js';

type ContactField = Capitalize<keyof ContactInput>;
/**
 * The API's own contact fields (ownerContactFirstName, adminContactEmail, contact/create's FirstName): the SDK takes
 * objects instead.
 */
type ContactFieldKeys<P> = {
  [K in keyof P]: K extends `${string}Contact${ContactField | 'ID'}` | ContactField ? K : never;
}[keyof P];
/** Domain roles (`owner` for ownerContactID…): a contact object or an existing contact ID. */
type DomainRoles<P> = keyof P extends infer K ? (K extends `${infer Role}ContactID` ? Role : never) : never;
/** SSL roles (`adminContact` for adminContactFirstName…, no ID): a contact object. */
type SslRoles<P> = keyof P extends infer K
  ? K extends `${infer Role}ContactFirstName`
    ? Role extends DomainRoles<P>
      ? never
      : `${Role}Contact`
    : never
  : never;

/**
 * What the SDK accepts besides the API's own parameters, for one operation: its contacts in
 * one shape (`ContactInput`, the camelCase object) wherever it takes one, and dnssetzone's
 * records. Nothing else: a misspelt or unknown name does not compile.
 */
export type SdkExtras<P> = { [R in DomainRoles<P>]?: ContactInput | string } & {
  [R in SslRoles<P>]?: ContactInput;
} & ('dnsZoneData' extends keyof P
    ? { /** service/dnssetzone: the zone's records; sent as Base64 of JSON. */ records?: ZoneRecord[] }
    : unknown);
/** An operation's parameters as the SDK takes them; contact/create takes the contact itself. */
type SdkParams<P> = 'FirstName' extends keyof P
  ? ContactInput
  : Without<ParamsOf<P>, ContactFieldKeys<P>> & SdkExtras<P>;
/** Omit that keeps pattern keys (alt_name_${number}). */
type Without<T, K> = { [Key in keyof T as Key extends K ? never : Key]: T[Key] };

type ParamsOfEndpoint<E> = E extends Endpoint<infer P, unknown> ? SdkParams<P> : never;
type ItemOf<R> = { [K in Exclude<keyof R, 'queryInfo'>]: R[K] extends (infer I)[] ? I : never }[Exclude<
  keyof R,
  'queryInfo'
>];
type Call<E> =
  Record<never, never> extends ParamsOfEndpoint<E>
    ? (params?: ParamsOfEndpoint<E>) => Promise<ResultOf<E>>
    : (params: ParamsOfEndpoint<E>) => Promise<ResultOf<E>>;

export interface ListHelpers<P, I> {
  /** Every item, page after page. */
  all(params?: P): AsyncIterable<I>;
  /** Every page with its queryInfo. */
  pages(params?: P): AsyncIterable<Page<I>>;
  /** Up to `limit` items (a limit is required: lists can be long, and the provider watches for bulk use). */
  collect(params: P | undefined, options: { limit: number }): Promise<I[]>;
}

export type Method<E> = Call<E> &
  (ResultOf<E> extends { queryInfo: QueryInfo } ? ListHelpers<ParamsOfEndpoint<E>, ItemOf<ResultOf<E>>> : unknown);
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
    // Rejected credentials name what this caller set, not the command line's variables.
    this.client = new ApiClient({
      ...options,
      authAdvice: options.authAdvice ?? 'check the user and password given to new Registrar({ url, user, password })',
    });
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
          if (!options || !Number.isInteger(options.limit) || options.limit < 1)
            throw new TypeError('collect() needs { limit } of at least 1');
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
