// Hosting services: create -> active, renew -> renewed, upgrade only to a larger plan; every
// entity kind inside a service, within the plan's limits (4003); the DNS zone that the
// dynamic DNS interface also changes.
import { PRODUCT_KEYS, type DnsEntry } from '../../api/endpoints/service.js';
import { familyOfAddress } from '../../lib/address.js';
import { atOrBelow, below, lowerName } from '../../lib/names.js';
import { findService, PRODUCTS, today, yearsFrom, type SandboxModel, type SandboxService } from '../model.js';
import {
  charge,
  contains,
  fail,
  matches,
  nextId,
  page,
  truthy,
  type OperationRequest,
  type Operations,
} from './common.js';
import { checkCnameAlone, checkDnsEntryValue, dnsEntryName } from './dns-rules.js';

type EntityKind = 'ftp' | 'ddbb' | 'subdomain' | 'redirect' | 'mail' | 'mailalias';
const LIMIT_OF: Record<EntityKind, keyof (typeof PRODUCTS)[string]['limits'] | undefined> = {
  ftp: 'ftp',
  ddbb: 'ddbb',
  subdomain: 'subdomain',
  redirect: undefined,
  mail: 'email',
  mailalias: 'emailalias',
};
const PHP_VERSIONS = ['default', '7.4', '8.1', '8.2', '8.3'];

function serviceOf({ model, fields }: OperationRequest): SandboxService {
  return (
    findService(model, fields.serviceName) ?? fail(4001, 'Service not found', `service ${fields.serviceName} not found`)
  );
}

const summary = (s: SandboxService) => ({
  name: s.name,
  status: s.status,
  type: s.type,
  productkey: s.productkey,
  tsExpir: s.tsExpir,
});
const order = (billing: { total: number; currency: string }, s: SandboxService) => ({
  billing,
  services: [summary(s)],
});

function checkLimit(s: SandboxService, kind: EntityKind | 'dns', count: number) {
  const key = kind === 'dns' ? 'dns' : LIMIT_OF[kind];
  const max = key ? PRODUCTS[s.productkey]!.limits[key] : Infinity;
  if (count >= max) fail(4003, 'Maximum entities reached', `the ${s.productkey} plan allows ${max} ${kind} entities`);
}

function infoOf(s: SandboxService, infoType = 'status'): Record<string, unknown> {
  const base = { name: s.name, type: s.type, status: s.status, tsExpir: s.tsExpir };
  const limits = PRODUCTS[s.productkey]!.limits;
  switch (infoType) {
    case 'resources': {
      const counter = (value: number, max: number) => ({ value, max, unit: '' });
      return {
        ...base,
        resources: {
          ftpusage: { value: 1_048_576 * s.ftp.length, max: 10_737_418_240, unit: 'bytes' },
          ftpfiles: { value: 42, max: 500_000, unit: 'files' },
          webtraffic: { value: 123_456_789, max: 107_374_182_400, unit: 'bytes' },
          ddbbusage: { value: 2_097_152 * s.ddbb.length, max: 1_073_741_824, unit: 'bytes' },
          ftp: counter(s.ftp.length, limits.ftp),
          ddbb: counter(s.ddbb.length, limits.ddbb),
          subdomain: counter(s.subdomain.length, limits.subdomain),
          email: counter(s.mail.length, limits.email),
          emailalias: counter(s.mailalias.length, limits.emailalias),
        },
      };
    }
    case 'serverinfo':
      return {
        ...base,
        serverinfo: {
          ftpServer: `ftp.${s.name}`,
          ftpAbsolutePath: `/home/${s.name}/public`,
          ftpWebServer: 'web1.sandbox.invalid',
          smtpServer: 'smtp.sandbox.invalid',
          pop3Server: 'pop3.sandbox.invalid',
          imapServer: 'imap.sandbox.invalid',
          webmail: 'https://webmail.sandbox.invalid',
          ddbbServer: 'db1.sandbox.invalid',
          PHPMyAdmin: 'https://phpmyadmin.sandbox.invalid',
        },
      };
    case 'php':
      return {
        ...base,
        php: { enabled: s.php.enabled, version: s.php.version, name: `PHP ${s.php.version}`, available: PHP_VERSIONS },
      };
    case 'logerror':
      return { ...base, logError: `[${today()} 10:00:00] [error] sandbox: no errors logged for ${s.name}\n` };
    default:
      return { ...base, productkey: s.productkey, tsCreate: s.tsCreate, renewable: true, renewalMode: s.renewalMode };
  }
}

/** The five operations of one entity kind, named <kind>list, getinfo, create, update, delete. */
function entityOps<E extends { entityID: string; name?: string }>(
  kind: EntityKind,
  create: (fields: Record<string, string>, id: string, s: SandboxService) => E,
  update: (entity: E, fields: Record<string, string>) => void,
  show: (entity: E) => unknown = (e) => e,
): Operations {
  const list = (s: SandboxService) => s[kind] as unknown as E[];
  const find = (r: OperationRequest) => {
    const s = serviceOf(r);
    const entity =
      list(s).find((e) => e.entityID === r.fields.entityID) ??
      fail(4002, 'Service entity not found', `${kind} entity ${r.fields.entityID} not found in ${s.name}`);
    return { s, entity };
  };
  return {
    [`${kind}list`]: {
      handle: (r) => {
        const items = list(serviceOf(r)).filter((e) =>
          contains(String(e.name ?? (e as { origin?: string }).origin ?? ''), r.fields.filter),
        );
        const { slice, queryInfo } = page(items.map(show), r.fields);
        return { queryInfo, [kind]: slice };
      },
    },
    [`${kind}getinfo`]: { handle: (r) => ({ [kind]: [show(find(r).entity)] }) },
    [`${kind}create`]: {
      writes: true,
      handle: (r) => {
        const s = serviceOf(r);
        checkLimit(s, kind, list(s).length);
        const entity = create(r.fields, String(nextId(r.model)), s);
        if (entity.name && list(s).some((e) => e.name === entity.name))
          fail(4004, 'Entity create error', `${kind} ${entity.name} exists already`);
        list(s).push(entity);
        return { [kind]: [show(entity)], messages: [`${kind} created`] };
      },
    },
    [`${kind}update`]: {
      writes: true,
      handle: (r) => {
        const { entity } = find(r);
        update(entity, r.fields);
        return { [kind]: [show(entity)], messages: [`${kind} updated`] };
      },
    },
    [`${kind}delete`]: {
      writes: true,
      handle: (r) => {
        const { s, entity } = find(r);
        (s[kind] as unknown as E[]).splice(list(s).indexOf(entity), 1);
        return [];
      },
    },
  };
}

const sslOf = (f: Record<string, string>) =>
  f.sslCert
    ? {
        ssl: {
          sslPath: f.sslPath!,
          ftpPath: f.sslPath!,
          sslCert: f.sslCert,
          sslKey: f.sslKey!,
          sslCertChain: f.sslCertChain!,
        },
      }
    : {};

function checkDnsValue(type: string, value: string) {
  if ((type === 'A' && familyOfAddress(value) !== 4) || (type === 'AAAA' && familyOfAddress(value) !== 6))
    fail(105, 'Syntax error: invalid parameter', `value "${value}" is not valid for an ${type} entry`);
}

function defaultZone(model: SandboxModel, s: SandboxService): DnsEntry[] {
  const e = (name: string, type: string, value: string, priority = '-'): DnsEntry => ({
    entityID: String(nextId(model)),
    name,
    type,
    ttl: '-',
    priority,
    value,
  });
  return [e(s.name, 'A', '192.0.2.10'), e(`www.${s.name}`, 'CNAME', s.name), e(s.name, 'MX', `mail.${s.name}`, '10')];
}

/** A whole zone's CNAMEs each alone at their name, in one pass (a replace may hold 100,000 entries). */
function checkCnamesAlone(zone: DnsEntry[]): void {
  const byName = new Map<string, { count: number; cname: boolean }>();
  for (const entry of zone) {
    const seen = byName.get(entry.name) ?? { count: 0, cname: false };
    seen.count++;
    seen.cname ||= entry.type === 'CNAME';
    byName.set(entry.name, seen);
    if (seen.count > 1 && seen.cname)
      fail(4004, 'Entity create error', `${entry.name} would have a CNAME beside other data`);
  }
}

const fullName = (zone: string, name: string) => {
  const n = lowerName(name);
  return n === '@' || n === '' ? zone : atOrBelow(n, zone) ? n : `${n}.${zone}`;
};

export const serviceOps: Operations = {
  list: {
    handle: ({ model, fields }) => {
      const found = model.services.filter(
        (s) =>
          matches(s.name, fields.name) &&
          contains(s.name, fields.word) &&
          (!fields.tld || below(s.name, fields.tld)) &&
          matches(s.status, fields.status),
      );
      const { slice, queryInfo } = page(found.map(summary), fields);
      return { queryInfo, services: slice };
    },
  },
  getinfo: { handle: (r) => infoOf(serviceOf(r), r.fields.infoType) },
  create: {
    writes: true,
    handle: ({ model, fields }) => {
      const name = fields.serviceName!.toLowerCase();
      if (findService(model, name)) fail(4007, 'Service create error', `service ${name} exists already`);
      const product = PRODUCTS[fields.productkey!]!;
      const period = Number(fields.period ?? 1);
      const billing = charge(model, product.price * period, `the ${fields.productkey} plan`);
      const s: SandboxService = {
        name,
        type: product.type,
        productkey: fields.productkey!,
        status: 'active',
        tsCreate: today(),
        tsExpir: yearsFrom(today(), period),
        renewalMode: 'autorenew',
        php: { enabled: true, version: 'default' },
        parking: fields.productkey === 'redir',
        ftp: [],
        ddbb: [],
        subdomain: [],
        redirect: [],
        mail: [],
        mailalias: [],
        dns: [],
      };
      s.dns = defaultZone(model, s);
      model.services.push(s);
      return order(billing, s);
    },
  },
  renew: {
    writes: true,
    handle: (r) => {
      const s = serviceOf(r);
      if (s.status === 'inactive' || s.status === 'init') fail(4009, 'Service renew error', `${s.name} is ${s.status}`);
      const period = Number(r.fields.period ?? 1);
      const billing = charge(r.model, PRODUCTS[s.productkey]!.price * period, `renewing ${s.name}`);
      s.tsExpir = yearsFrom(s.tsExpir, period);
      s.status = 'renewed';
      return order(billing, s);
    },
  },
  upgrade: {
    writes: true,
    handle: (r) => {
      const s = serviceOf(r);
      const from = PRODUCT_KEYS.indexOf(s.productkey as (typeof PRODUCT_KEYS)[number]);
      const to = PRODUCT_KEYS.indexOf(r.fields.productkey as (typeof PRODUCT_KEYS)[number]);
      if (to <= from)
        fail(4008, 'Service upgrade error', `${r.fields.productkey} is not a larger plan than ${s.productkey}`);
      const billing = charge(
        r.model,
        PRODUCTS[r.fields.productkey!]!.price - PRODUCTS[s.productkey]!.price,
        `upgrading ${s.name}`,
      );
      s.productkey = r.fields.productkey!;
      s.type = PRODUCTS[s.productkey]!.type;
      return order(billing, s);
    },
  },
  update: {
    writes: true,
    handle: (r) => {
      const s = serviceOf(r);
      if (r.fields.updateType === 'renewalMode') s.renewalMode = r.fields.renewalMode as SandboxService['renewalMode'];
      else {
        if (!PHP_VERSIONS.includes(r.fields.phpversion!))
          fail(
            4005,
            'Entity update error',
            `PHP ${r.fields.phpversion} is not available; use one of ${PHP_VERSIONS.join(', ')}`,
          );
        s.php.version = r.fields.phpversion!;
      }
      return {
        ...summary(s),
        ...(r.fields.updateType === 'phpversion' ? { php: (infoOf(s, 'php') as { php: unknown }).php } : {}),
      };
    },
  },
  parkinggetinfo: { handle: (r) => ({ parking: { enabled: serviceOf(r).parking } }) },
  parkingupdate: {
    writes: true,
    handle: (r) => {
      const s = serviceOf(r);
      s.parking = truthy(r.fields.enabled);
      return { parking: { enabled: s.parking } };
    },
  },
  webconstructorlogin: {
    handle: (r) => {
      const s = serviceOf(r);
      if (s.productkey === 'redir') fail(10001, 'Web constructor error', 'the redirection plan has no web constructor');
      return {
        webconstructor: {
          loginURL:
            `https://webconstructor.sandbox.invalid/login?service=${encodeURIComponent(s.name)}` +
            `&sub=${encodeURIComponent(r.fields.subdomain!)}&lang=${r.fields.loginlang ?? 'en'}&token=sandbox`,
        },
      };
    },
  },
  ...entityOps(
    'ftp',
    (f, id) => ({ entityID: id, name: f.name!, ftpPath: f.ftpPath!, password: f.password!, quota: Number(f.quota) }),
    (e, f) => Object.assign(e, { ftpPath: f.ftpPath, password: f.password, quota: Number(f.quota) }),
  ),
  ...entityOps(
    'ddbb',
    (f, id, s) => ({
      entityID: id,
      name: `db${id}_${s.name.split('.')[0]}`,
      user: `u${id}`,
      password: f.password!,
      externalAccess: truthy(f.externalAccess),
    }),
    (e, f) => Object.assign(e, { password: f.password, externalAccess: truthy(f.externalAccess) }),
  ),
  ...entityOps(
    'subdomain',
    (f, id, s) => ({ entityID: id, name: fullName(s.name, f.name!), ftpPath: f.ftpPath!, ...sslOf(f) }),
    (e, f) => Object.assign(e, { ftpPath: f.ftpPath }, sslOf(f)),
  ),
  ...entityOps(
    'redirect',
    (f, id) => ({ entityID: id, origin: f.origin!, destination: f.destination!, type: f.type as '301' }),
    (e, f) => Object.assign(e, { destination: f.destination, type: f.type }),
  ),
  ...entityOps(
    'mail',
    (f, id, s) => ({
      entityID: id,
      name: f.name!.includes('@') ? f.name! : `${f.name}@${s.name}`,
      password: f.password!,
      usage: 0,
      quotaMax: 2_147_483_648,
    }),
    (e, f) => Object.assign(e, { password: f.password }),
    (e) => ({ ...e, password: '********' }),
  ),
  ...entityOps(
    'mailalias',
    (f, id, s) => ({
      entityID: id,
      name: f.name!.includes('@') ? f.name! : `${f.name}@${s.name}`,
      target: f.target!.split(',').map((t) => t.trim()),
    }),
    (e, f) => Object.assign(e, { target: f.target!.split(',').map((t) => t.trim()) }),
  ),
  dnslist: {
    handle: (r) => {
      const { fields } = r;
      const { dns } = serviceOf(r);
      // Unfiltered, a page is a slice: listing a 100,000-entry zone stays linear.
      const filtered = fields.filter || fields.filterType || fields.filterValue;
      const entries = filtered
        ? dns.filter(
            (e) =>
              contains(e.name, fields.filter) &&
              matches(e.type, fields.filterType) &&
              contains(e.value, fields.filterValue),
          )
        : dns;
      const { slice, queryInfo } = page(entries, fields);
      return { queryInfo, dns: slice };
    },
  },
  dnsgetinfo: {
    handle: (r) => ({
      dns: [
        serviceOf(r).dns.find((e) => e.entityID === r.fields.entityID) ??
          fail(4002, 'Service entity not found', `entity ${r.fields.entityID} not found`),
      ],
    }),
  },
  dnscreate: {
    writes: true,
    handle: (r) => {
      const s = serviceOf(r);
      const { fields, model } = r;
      checkLimit(s, 'dns', s.dns.length);
      checkDnsValue(fields.type!, fields.value!);
      checkDnsEntryValue(fields.type!, fields.value!);
      const priority = fields.priority ?? (fields.type === 'MX' || fields.type === 'SRV' ? '10' : '-');
      const entry: DnsEntry = {
        entityID: String(nextId(model)),
        name: dnsEntryName(s.name, fields.name!),
        type: fields.type!,
        ttl: fields.ttl ?? '-',
        priority,
        value: fields.value!,
      };
      checkCnameAlone(s.dns, entry);
      s.dns.push(entry);
      return { dns: [entry] };
    },
  },
  dnsupdate: {
    writes: true,
    handle: (r) => {
      const entry =
        serviceOf(r).dns.find((e) => e.entityID === r.fields.entityID) ??
        fail(4002, 'Service entity not found', `entity ${r.fields.entityID} not found`);
      checkDnsValue(entry.type, r.fields.value!);
      checkDnsEntryValue(entry.type, r.fields.value!);
      entry.value = r.fields.value!;
      if (r.fields.ttl) entry.ttl = r.fields.ttl;
      if (r.fields.priority) entry.priority = r.fields.priority;
      return { dns: [entry] };
    },
  },
  dnsdelete: {
    writes: true,
    handle: (r) => {
      const s = serviceOf(r);
      const index = s.dns.findIndex((e) => e.entityID === r.fields.entityID);
      if (index < 0) fail(4002, 'Service entity not found', `entity ${r.fields.entityID} not found`);
      s.dns.splice(index, 1);
      return [];
    },
  },
  dnsrestore: {
    writes: true,
    handle: (r) => {
      const s = serviceOf(r);
      s.dns = defaultZone(r.model, s);
      return [];
    },
  },
  dnssetzone: {
    writes: true,
    handle: (r) => {
      const s = serviceOf(r);
      let records: { name?: unknown; type?: unknown; ttl?: unknown; priority?: unknown; value?: unknown }[];
      try {
        records = JSON.parse(Buffer.from(r.fields.dnsZoneData!, 'base64').toString('utf8'));
        if (!Array.isArray(records)) throw new Error('not an array');
      } catch {
        return fail(
          105,
          'Syntax error: invalid parameter',
          'dnsZoneData must be Base64 of a JSON array of {name, type, ttl, priority, value}',
        );
      }
      const zone = records.map((x) => {
        if (typeof x?.name !== 'string' || typeof x.type !== 'string' || typeof x.value !== 'string')
          fail(105, 'Syntax error: invalid parameter', 'each record needs name, type and value');
        checkDnsValue(String(x.type), String(x.value));
        checkDnsEntryValue(String(x.type), String(x.value));
        // A TTL or priority of 0 is a value, not "none"; MX and SRV default to 10 as in dnscreate.
        const given = (v: unknown) => v !== undefined && v !== null && v !== '' && v !== '-';
        const priority = given(x.priority) ? String(x.priority) : x.type === 'MX' || x.type === 'SRV' ? '10' : '-';
        return {
          entityID: String(nextId(r.model)),
          name: dnsEntryName(s.name, String(x.name)),
          type: String(x.type),
          ttl: given(x.ttl) ? String(x.ttl) : '-',
          priority,
          value: String(x.value),
        };
      });
      checkLimit(s, 'dns', zone.length - 1);
      checkCnamesAlone(zone);
      s.dns = zone;
      return [];
    },
  },
  dnsdeleteall: {
    writes: true,
    handle: (r) => {
      serviceOf(r).dns = [];
      return [];
    },
  },
};
