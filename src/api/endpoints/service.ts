import { bool, int, oneOf, required, requiredIf, str, type ParamSpec, type Rule } from '../params.js';
import { op, paging, type Endpoint, type QueryInfo } from './types.js';

export const DNS_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'SRV', 'TXT', 'NS', 'CAA'] as const;
export const SERVICE_STATUS = ['init', 'active', 'inactive', 'renewed', 'renewable'] as const;
export const PRODUCT_KEYS = [
  'redir',
  'mini',
  'mailplus',
  'mailpro',
  'basic',
  'professional',
  'advanced',
  'corporate',
] as const;
export const REDIRECT_TYPES = ['301', '302', 'frame'] as const;
const INFO_TYPES = ['status', 'resources', 'serverinfo', 'php', 'logerror'] as const;
/** FTP quotas start at 1 MiB. */
export const MIN_FTP_QUOTA = 1_048_576;

export interface ServiceSummary {
  name: string;
  status: (typeof SERVICE_STATUS)[number];
  type: string;
  productkey: string;
  tsExpir: string;
}
export interface Resource {
  value: number;
  max: number;
  unit: string;
}
export interface Php {
  enabled: boolean;
  version: string;
  name: string;
  available: string[];
}
export interface ServiceInfo extends Partial<ServiceSummary> {
  tsCreate?: string;
  renewable?: boolean;
  renewalMode?: 'autorenew' | 'manual';
  resources?: Record<
    'ftpusage' | 'ftpfiles' | 'webtraffic' | 'ftp' | 'ddbb' | 'ddbbusage' | 'subdomain' | 'email' | 'emailalias',
    Resource
  >;
  php?: Php;
  serverinfo?: Record<
    | 'ftpServer'
    | 'ftpAbsolutePath'
    | 'ftpWebServer'
    | 'smtpServer'
    | 'pop3Server'
    | 'imapServer'
    | 'webmail'
    | 'ddbbServer'
    | 'PHPMyAdmin',
    string
  >;
  logError?: string;
}
export interface ServiceOrder {
  billing: { total: number; currency: string };
  services: ServiceSummary[];
}
export interface FtpEntity {
  entityID: string;
  name: string;
  ftpPath: string;
  password: string;
  quota: number;
}
export interface DatabaseEntity {
  entityID: string;
  name: string;
  user: string;
  password: string;
  externalAccess: boolean;
}
export interface SubdomainEntity {
  entityID: string;
  name: string;
  ftpPath: string;
  ssl?: { sslPath?: string; ftpPath?: string; sslCert: string; sslKey: string; sslCertChain: string };
}
export interface RedirectEntity {
  entityID: string;
  origin: string;
  destination: string;
  type: (typeof REDIRECT_TYPES)[number];
}
export interface MailEntity {
  entityID: string;
  name: string;
  password: string;
  usage: number;
  quotaMax: number;
}
export interface MailAliasEntity {
  entityID: string;
  name: string;
  target: string[];
}
export interface DnsEntry {
  entityID: string;
  name: string;
  type: string;
  ttl: string;
  priority: string;
  value: string;
}
/** A zone record for dnssetzone; the SDK does the Base64-of-JSON encoding. */
export interface ZoneRecord {
  name: string;
  type: (typeof DNS_TYPES)[number];
  value: string;
  ttl?: number | string;
  priority?: number | string;
}

const serviceName = { serviceName: required(str('service name')) };
const entityID = { entityID: required(str('entity ID')) };
const listParams = { ...serviceName, ...paging, filter: str() };

/** mailbox -> mailboxes, mail alias -> mail aliases, database -> databases. */
const plural = (noun: string): string => (/(s|x|z|ch|sh)$/.test(noun) ? `${noun}es` : `${noun}s`);

/**
 * The five operations of one kind of entity inside a service: <kind>list, getinfo, create,
 * update, delete. Their answers carry the entities under `key`.
 */
// Curried so that the entity type is named and the parameters are inferred literally (the SDK
// refuses names an operation does not take).
const entity =
  <E>() =>
  <K extends string, const C extends Record<string, ParamSpec>, const U extends Record<string, ParamSpec>>(
    kind: K,
    noun: string,
    create: C,
    update: U,
    rules: { create?: Rule[]; update?: Rule[] } = {},
    extraList: Record<string, ParamSpec> = {},
  ) => {
    type Result = Record<K, E[]>;
    return {
      [`${kind}List`]: op<{ queryInfo: QueryInfo } & Result>()({
        action: `${kind}list`,
        describe: `List the ${plural(noun)} of a service`,
        params: { ...listParams, ...extraList },
        listKey: kind,
        idempotent: true,
      }),
      [`${kind}GetInfo`]: op<Result>()({
        action: `${kind}getinfo`,
        describe: `One ${noun}`,
        params: { ...serviceName, ...entityID },
        idempotent: true,
      }),
      [`${kind}Create`]: op<Result>()({
        action: `${kind}create`,
        describe: `Create a ${noun}`,
        params: { ...serviceName, ...create },
        rules: rules.create,
      }),
      [`${kind}Update`]: op<Result>()({
        action: `${kind}update`,
        describe: `Change a ${noun}`,
        params: { ...serviceName, ...entityID, ...update },
        rules: rules.update,
        idempotent: true,
      }),
      [`${kind}Delete`]: op<Record<string, never>>()({
        action: `${kind}delete`,
        describe: `Delete a ${noun}`,
        params: { ...serviceName, ...entityID },
      }),
    } as { [P in `${K}List`]: Endpoint<typeof listParams, { queryInfo: QueryInfo } & Result> } & {
      [P in `${K}GetInfo`]: Endpoint<typeof serviceName & typeof entityID, Result>;
    } & {
      [P in `${K}Create`]: Endpoint<typeof serviceName & C, Result>;
    } & { [P in `${K}Update`]: Endpoint<typeof serviceName & typeof entityID & U, Result> } & {
      [P in `${K}Delete`]: Endpoint<typeof serviceName & typeof entityID, Record<string, never>>;
    };
  };

const quota = required(int(`bytes, at least ${MIN_FTP_QUOTA}`, { min: MIN_FTP_QUOTA }));
const sslFields = {
  sslCert: str('certificate (PEM) to install'),
  sslKey: str('private key (with sslCert)'),
  sslCertChain: str('CA chain (with sslCert)'),
  sslPath: str('path for the certificate (with sslCert)'),
};
const sslRules = (['sslKey', 'sslCertChain', 'sslPath'] as const).map((name) =>
  requiredIf(name, (p) => Boolean(p.sslCert), 'when sslCert is sent'),
);
const mxPriority = int('priority (default 10 for MX and SRV)', { min: 0 });

/** dnssetzone takes the whole zone as Base64 of a JSON array; the SDK accepts `records`. */
function encodeZone(params: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(params.records)) return params;
  const { records, ...rest } = params;
  const zone = (records as ZoneRecord[]).map((r) => ({
    name: r.name,
    type: r.type,
    ttl: r.ttl ?? '',
    priority: r.priority ?? '',
    value: r.value,
  }));
  return { ...rest, dnsZoneData: Buffer.from(JSON.stringify(zone)).toString('base64') };
}

export const service = {
  list: op<{ queryInfo: QueryInfo; services: ServiceSummary[] }>()({
    action: 'list',
    describe: 'List hosting services',
    params: {
      ...paging,
      name: str('exact service name'),
      word: str('substring'),
      tld: str(),
      renewable: bool(),
      status: oneOf(SERVICE_STATUS),
    },
    listKey: 'services',
    idempotent: true,
  }),
  getInfo: op<ServiceInfo>()({
    action: 'getinfo',
    describe: "A service's data, by infoType",
    params: { ...serviceName, infoType: oneOf(INFO_TYPES, 'default status') },
    idempotent: true,
  }),
  create: op<ServiceOrder>()({
    action: 'create',
    describe: 'Order a hosting service (spends balance)',
    params: {
      ...serviceName,
      productkey: required(oneOf(PRODUCT_KEYS)),
      period: int('years (default 1)', { min: 1, max: 10 }),
    },
    spends: true,
  }),
  renew: op<ServiceOrder>()({
    action: 'renew',
    describe: 'Renew a service (spends balance)',
    params: { ...serviceName, period: int('years (default 1)', { min: 1, max: 10 }) },
    spends: true,
  }),
  upgrade: op<ServiceOrder>()({
    action: 'upgrade',
    describe: 'Move a service to a higher plan (spends balance)',
    params: { ...serviceName, productkey: required(oneOf(PRODUCT_KEYS)) },
    spends: true,
  }),
  update: op<ServiceSummary & { php?: Php }>()({
    action: 'update',
    describe: "Change a service's renewal mode or PHP version",
    params: {
      ...serviceName,
      updateType: required(oneOf(['renewalMode', 'phpversion'] as const)),
      renewalMode: oneOf(['autorenew', 'manual'] as const),
      phpversion: str('PHP version to apply'),
    },
    rules: [
      requiredIf('renewalMode', (p) => p.updateType === 'renewalMode', 'when updateType is renewalMode'),
      requiredIf('phpversion', (p) => p.updateType === 'phpversion', 'when updateType is phpversion'),
    ],
    idempotent: true,
  }),
  parkingGetInfo: op<{ parking: { enabled: boolean } }>()({
    action: 'parkinggetinfo',
    describe: 'Whether parking is enabled',
    params: serviceName,
    idempotent: true,
  }),
  parkingUpdate: op<{ parking: { enabled: boolean } }>()({
    action: 'parkingupdate',
    describe: 'Enable or disable parking',
    params: { ...serviceName, enabled: required(bool()) },
    idempotent: true,
  }),
  webConstructorLogin: op<{ webconstructor: { loginURL: string } }>()({
    action: 'webconstructorlogin',
    describe: 'A login URL for the web constructor',
    params: { ...serviceName, subdomain: required(str('subdomain to publish on')), loginlang: str('default en') },
  }),
  ...entity<FtpEntity>()(
    'ftp',
    'FTP account',
    { name: required(str('FTP user')), ftpPath: required(str()), password: required(str()), quota },
    { ftpPath: required(str()), password: required(str()), quota },
  ),
  ...entity<DatabaseEntity>()(
    'ddbb',
    'database',
    { password: required(str()), externalAccess: bool('default false') },
    { password: required(str()), externalAccess: bool('default false') },
  ),
  ...entity<SubdomainEntity>()(
    'subdomain',
    'subdomain',
    { name: required(str()), ftpPath: required(str()), ...sslFields },
    { ftpPath: required(str()), ...sslFields },
    { create: sslRules, update: sslRules },
  ),
  ...entity<RedirectEntity>()(
    'redirect',
    'redirection',
    { origin: required(str()), destination: required(str()), type: required(oneOf(REDIRECT_TYPES)) },
    { destination: required(str()), type: required(oneOf(REDIRECT_TYPES)) },
  ),
  ...entity<MailEntity>()(
    'mail',
    'mailbox',
    { name: required(str('account name')), password: required(str()) },
    { password: required(str()) },
  ),
  ...entity<MailAliasEntity>()(
    'mailalias',
    'mail alias',
    { name: required(str()), target: required(str('comma-separated destination addresses')) },
    { target: required(str('comma-separated destination addresses')) },
  ),
  dnsList: op<{ queryInfo: QueryInfo; dns: DnsEntry[] }>()({
    action: 'dnslist',
    describe: "List the entries of a service's DNS zone",
    params: { ...listParams, filterType: oneOf(DNS_TYPES, 'by type'), filterValue: str('by value') },
    listKey: 'dns',
    idempotent: true,
  }),
  dnsGetInfo: op<{ dns: DnsEntry[] }>()({
    action: 'dnsgetinfo',
    describe: 'One DNS zone entry',
    params: { ...serviceName, ...entityID },
    idempotent: true,
  }),
  dnsCreate: op<{ dns: DnsEntry[] }>()({
    action: 'dnscreate',
    describe: 'Create a DNS zone entry',
    params: {
      ...serviceName,
      name: required(str('entry name')),
      type: required(oneOf(DNS_TYPES)),
      value: required(str()),
      ttl: int('seconds', { min: 0 }),
      priority: mxPriority,
    },
  }),
  dnsUpdate: op<{ dns: DnsEntry[] }>()({
    action: 'dnsupdate',
    describe: 'Change the value of a DNS zone entry',
    params: {
      ...serviceName,
      ...entityID,
      value: required(str()),
      ttl: int('seconds', { min: 0 }),
      priority: mxPriority,
    },
    // Setting an entry to a given value twice leaves it as once.
    idempotent: true,
  }),
  dnsDelete: op<Record<string, never>>()({
    action: 'dnsdelete',
    describe: 'Delete a DNS zone entry',
    params: { ...serviceName, ...entityID },
  }),
  dnsRestore: op<Record<string, never>>()({
    action: 'dnsrestore',
    describe: 'Restore the default zone',
    params: serviceName,
  }),
  dnsSetZone: op<Record<string, never>>()({
    action: 'dnssetzone',
    describe: 'Replace the whole zone (SDK: pass `records`; it is sent as Base64 of JSON)',
    params: { ...serviceName, dnsZoneData: str('Base64 of a JSON array of {name, type, ttl, priority, value}') },
    rules: [requiredIf('dnsZoneData', () => true, '(or, through the SDK, records)')],
    prepare: encodeZone,
    idempotent: true,
  }),
  dnsDeleteAll: op<Record<string, never>>()({
    action: 'dnsdeleteall',
    describe: 'Delete every zone entry',
    params: serviceName,
  }),
};
