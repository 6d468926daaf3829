// The sandbox's account as plain data (so --data can save it): credentials, balance, TLD
// prices, domains, contacts, hosting services with their entities and zones, SSL products and
// certificates. Every operation reads and changes this, nothing is canned.
import type { Contact } from '../api/endpoints/contact.js';
import type { DnssecEntry, GlueRecord, HistoryEntry } from '../api/endpoints/domain.js';
import type {
  DatabaseEntity,
  DnsEntry,
  FtpEntity,
  MailAliasEntity,
  MailEntity,
  RedirectEntity,
  SubdomainEntity,
} from '../api/endpoints/service.js';
import type { SslProduct } from '../api/endpoints/ssl.js';
import type { Promotion } from '../api/endpoints/account.js';

export interface TldPrice {
  tld: string;
  tldtop: string;
  authcodereq: boolean;
  create: number;
  renew: number;
  transfer: number;
  years: string;
}

export interface SandboxDomain {
  domainID: number;
  name: string;
  tld: string;
  status: string;
  tsCreate: string;
  tsExpir: string;
  renewalMode: 'autorenew' | 'manual' | 'letexpire';
  modifyBlock: boolean;
  transferBlock: boolean;
  whoisPrivacy: boolean;
  viewWhois: boolean;
  tag: string;
  authcode: string;
  nameservers: string[];
  defaultNS: boolean;
  gluerecords: GlueRecord[];
  dnssec: DnssecEntry[];
  contacts: { owner: string; admin: string; tech: string; billing: string };
  ownerverification: string;
  transferStatus?: string;
  serviceName?: string;
  history: HistoryEntry[];
}

export interface SandboxService {
  name: string;
  type: string;
  productkey: string;
  status: string;
  tsCreate: string;
  tsExpir: string;
  renewalMode: 'autorenew' | 'manual';
  php: { enabled: boolean; version: string };
  parking: boolean;
  ftp: FtpEntity[];
  ddbb: DatabaseEntity[];
  subdomain: SubdomainEntity[];
  redirect: RedirectEntity[];
  mail: MailEntity[];
  mailalias: MailAliasEntity[];
  dns: DnsEntry[];
}

export interface SandboxCertificate {
  certificateID: number;
  productID: number;
  commonName: string;
  status: string;
  tsCreate: string;
  tsExpir: string;
  alternativeNames: string[];
  csrData: string;
  validationMethod: string;
  sanMaxDomains?: number;
}

export interface SandboxModel {
  account: {
    apiUser: string;
    apiPassword: string;
    dyndnsUser: string;
    dyndnsKey: string;
    clientName: string;
    balance: number;
    threshold: number;
    currency: string;
    allowedIps?: string[];
  };
  tlds: TldPrice[];
  promos: Promotion[];
  /** Names registered by someone else: domain/check says unavailable, create answers 2010. */
  taken: string[];
  /** Words that make a name premium: create needs premium=true (2011). */
  premiumWords: string[];
  domains: SandboxDomain[];
  deletedDomains: { name: string; tld: string; tsDeleted: string; domainID: number; info: string }[];
  contacts: Contact[];
  services: SandboxService[];
  sslProducts: SslProduct[];
  certificates: SandboxCertificate[];
  nextId: number;
}

/** Demo credentials: printed at start, meant to be copied; they protect nothing real. */
const DEMO_ACCOUNT = {
  apiUser: 'demo-user',
  apiPassword: 'demo-api-password',
  dyndnsUser: 'demo-user',
  dyndnsKey: 'demo-dyndns-key',
} as const;

/**
 * Plans from small to large; an upgrade must move right. The provider answers 4003 past a
 * plan's limits but publishes no numbers: these are the sandbox's own, and the largest plan
 * holds the 100,000 DNS entries the zone commands promise to handle.
 */
export const PRODUCTS: Record<
  string,
  { type: string; price: number; limits: Record<'ftp' | 'ddbb' | 'subdomain' | 'email' | 'emailalias' | 'dns', number> }
> = {
  redir: {
    type: 'Redirection and parking',
    price: 0,
    limits: { ftp: 0, ddbb: 0, subdomain: 2, email: 0, emailalias: 5, dns: 50 },
  },
  mini: {
    type: 'Hosting Mini',
    price: 19,
    limits: { ftp: 1, ddbb: 1, subdomain: 5, email: 5, emailalias: 10, dns: 100 },
  },
  mailplus: {
    type: 'Mail Plus',
    price: 24,
    limits: { ftp: 0, ddbb: 0, subdomain: 2, email: 25, emailalias: 50, dns: 100 },
  },
  mailpro: {
    type: 'Mail Pro',
    price: 49,
    limits: { ftp: 0, ddbb: 0, subdomain: 2, email: 100, emailalias: 200, dns: 100 },
  },
  basic: {
    type: 'Hosting Basic',
    price: 49,
    limits: { ftp: 3, ddbb: 3, subdomain: 10, email: 20, emailalias: 50, dns: 200 },
  },
  professional: {
    type: 'Hosting Professional',
    price: 99,
    limits: { ftp: 10, ddbb: 10, subdomain: 25, email: 50, emailalias: 100, dns: 300 },
  },
  advanced: {
    type: 'Hosting Advanced',
    price: 149,
    limits: { ftp: 25, ddbb: 25, subdomain: 50, email: 100, emailalias: 200, dns: 500 },
  },
  corporate: {
    type: 'Hosting Corporate',
    price: 299,
    limits: { ftp: 100, ddbb: 100, subdomain: 100, email: 500, emailalias: 1000, dns: 100_000 },
  },
};

export const today = (): string => new Date().toISOString().slice(0, 10);
export const now = (): string => new Date().toISOString().replace('T', ' ').slice(0, 19);
export const yearsFrom = (date: string, years: number): string => {
  const d = new Date(`${date || today()}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.toISOString().slice(0, 10);
};

const dnsEntry = (entityID: number, name: string, type: string, value: string, priority = '-'): DnsEntry => ({
  entityID: String(entityID),
  name,
  type,
  ttl: '-',
  priority,
  value,
});

const demoContact: Contact = {
  contactID: 'DEMO-1',
  contactType: 'individual',
  firstName: 'Ana',
  lastName: 'García',
  orgName: '',
  orgType: '',
  identNumber: '12345678Z',
  email: 'ana@example.com',
  phone: '+34.912345678',
  fax: '',
  address: 'Calle Mayor 1',
  postalCode: '28001',
  city: 'Madrid',
  state: 'Madrid',
  country: 'ES',
  verificationstatus: 'verified',
  daaccepted: true,
};

function service(name: string, productkey: string, dns: DnsEntry[]): SandboxService {
  return {
    name,
    type: PRODUCTS[productkey]!.type,
    productkey,
    status: 'active',
    tsCreate: '2024-01-15',
    tsExpir: yearsFrom(today(), 1),
    renewalMode: 'autorenew',
    php: { enabled: true, version: '8.2' },
    parking: productkey === 'redir',
    ftp: [],
    ddbb: [],
    subdomain: [],
    redirect: [],
    mail: [],
    mailalias: [],
    dns,
  };
}

export function demoModel(): SandboxModel {
  const expiry = yearsFrom(today(), 1);
  const domain = (domainID: number, name: string, serviceName?: string) =>
    demoDomain(domainID, name, expiry, serviceName);
  return {
    account: { ...DEMO_ACCOUNT, clientName: 'Demo Client SL', balance: 500, threshold: 50, currency: 'EUR' },
    tlds: demoTlds(),
    promos: [
      {
        promo: 'PROMO-ES',
        type: 'domain',
        action: 'create',
        price: 2.99,
        tsIni: '2026-01-01 00:00:00',
        tsEnd: '2027-12-31 23:59:59',
        tld: 'es',
      },
    ],
    taken: ['google.com', 'example-taken.com'],
    premiumWords: ['premium', 'casino', 'vip'],
    domains: [
      domain(1, 'example.com', 'example.com'),
      domain(2, 'example.net', 'example.net'),
      domain(3, 'example.es'),
    ],
    deletedDomains: [{ name: 'old-example.com', tld: 'com', tsDeleted: '2025-06-01', domainID: 99, info: 'expired' }],
    contacts: [demoContact],
    services: [
      service('example.com', 'basic', [
        dnsEntry(1, 'example.com', 'A', '192.0.2.10'),
        dnsEntry(2, 'www.example.com', 'CNAME', 'example.com'),
        dnsEntry(3, 'home.example.com', 'A', '192.0.2.20'),
        dnsEntry(4, 'example.com', 'MX', 'mail.example.com', '10'),
        dnsEntry(5, 'example.com', 'TXT', 'v=spf1 mx -all'),
      ]),
      service('example.net', 'redir', [dnsEntry(6, 'example.net', 'A', '192.0.2.30')]),
    ],
    sslProducts: demoSslProducts(),
    certificates: [],
    nextId: 100,
  };
}

/** A demo domain, registered in 2024 and renewed automatically until `expiry`. */
function demoDomain(domainID: number, name: string, expiry: string, serviceName?: string): SandboxDomain {
  return {
    domainID,
    name,
    tld: name.split('.').pop()!,
    status: 'active',
    tsCreate: '2024-01-15',
    tsExpir: expiry,
    renewalMode: 'autorenew',
    modifyBlock: false,
    transferBlock: true,
    whoisPrivacy: false,
    viewWhois: true,
    tag: '',
    authcode: `AUTH-${domainID}-x7Q2`,
    nameservers: ['ns1.dondominio.com', 'ns2.dondominio.com'],
    defaultNS: true,
    gluerecords: [],
    dnssec: [],
    contacts: { owner: 'DEMO-1', admin: 'DEMO-1', tech: 'DEMO-1', billing: 'DEMO-1' },
    ownerverification: 'verified',
    serviceName,
    history: [
      {
        ts: '2024-01-15 10:00:00',
        ip: '127.0.0.1',
        user: 'demo-user',
        title: 'create',
        message: `Domain ${name} registered`,
      },
    ],
  };
}

/** The TLDs the demo account may register, with their prices. */
function demoTlds(): TldPrice[] {
  return [
    {
      tld: 'com',
      tldtop: 'com',
      authcodereq: true,
      create: 11.5,
      renew: 11.5,
      transfer: 11.5,
      years: '1,2,3,4,5,6,7,8,9,10',
    },
    {
      tld: 'net',
      tldtop: 'net',
      authcodereq: true,
      create: 12.5,
      renew: 12.5,
      transfer: 12.5,
      years: '1,2,3,4,5,6,7,8,9,10',
    },
    {
      tld: 'org',
      tldtop: 'org',
      authcodereq: true,
      create: 12,
      renew: 12,
      transfer: 12,
      years: '1,2,3,4,5,6,7,8,9,10',
    },
    { tld: 'es', tldtop: 'es', authcodereq: false, create: 7, renew: 7, transfer: 0, years: '1,2,3,4,5' },
    { tld: 'com.es', tldtop: 'es', authcodereq: false, create: 6, renew: 6, transfer: 0, years: '1,2,3,4,5' },
    { tld: 'eu', tldtop: 'eu', authcodereq: true, create: 8, renew: 8, transfer: 8, years: '1,2,3,4,5,6,7,8,9,10' },
  ];
}

/** The SSL products the demo account may order. */
function demoSslProducts(): SslProduct[] {
  return [
    {
      productID: 1,
      productName: 'RapidSSL',
      brandName: 'RapidSSL',
      validationType: 'dv',
      isMultiDomain: false,
      isWildcard: false,
      isTrial: false,
      numDomains: 1,
      keyLength: 2048,
      encryption: 256,
      create: { create: 9.9, years: 1 },
      renew: { create: 9.9, years: 1 },
    },
    {
      productID: 2,
      productName: 'RapidSSL Wildcard',
      brandName: 'RapidSSL',
      validationType: 'dv',
      isMultiDomain: false,
      isWildcard: true,
      isTrial: false,
      numDomains: 1,
      keyLength: 2048,
      encryption: 256,
      create: { create: 89, years: 1 },
      renew: { create: 89, years: 1 },
    },
    {
      productID: 3,
      productName: 'GeoTrust True BusinessID Multi-Domain',
      brandName: 'GeoTrust',
      validationType: 'ev',
      isMultiDomain: true,
      isWildcard: false,
      isTrial: false,
      numDomains: 1,
      keyLength: 2048,
      encryption: 256,
      create: { create: 199, years: 1 },
      renew: { create: 199, years: 1 },
      sanMaxDomains: 25,
      sanPrice: 45,
    },
    {
      productID: 4,
      productName: 'SSL Trial',
      brandName: 'RapidSSL',
      validationType: 'dv',
      isMultiDomain: false,
      isWildcard: false,
      isTrial: true,
      numDomains: 1,
      keyLength: 2048,
      encryption: 256,
      create: { create: 0, years: 1 },
      renew: { create: 0, years: 1 },
      trialPeriod: '30',
    },
  ];
}

export function findService(model: SandboxModel, name: unknown): SandboxService | undefined {
  return model.services.find((s) => s.name === String(name ?? '').toLowerCase());
}
