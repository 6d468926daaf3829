import {
  bool,
  formats,
  int,
  listLength,
  oneOf,
  oneOfParams,
  required,
  requiredIf,
  str,
  type ParamSpec,
} from '../params.js';
import { contactParams, contactRules, type ContactParams } from './contact-fields.js';
import type { Contact } from './contact.js';
import { op, paging, type QueryInfo } from './types.js';

/** Includes `expired-prendingdelete`, a spelling the real service has answered with. */
export const DOMAIN_STATUS = [
  'register-init',
  'register-pending',
  'register-cancel',
  'transfer-init',
  'transfer-pending',
  'transfer-cancel',
  'inactive',
  'active',
  'renewed',
  'expired-renewgrace',
  'expired-redemption',
  'expired-pendingdelete',
  'expired-prendingdelete',
] as const;
export const RENEWAL_MODES = ['autorenew', 'manual', 'letexpire'] as const;
export const TRANSFER_STATUS = [
  'init',
  'queued',
  'set-auth',
  'pending-auth',
  'pending-foa',
  'pending-tag',
  'pending-registry',
  'cancelled',
  'completed',
] as const;
export const OWNER_VERIFICATION = ['verified', 'notapplicable', 'inprocess', 'failed'] as const;
const INFO_TYPES = ['status', 'contact', 'nameservers', 'authcode', 'service', 'gluerecords', 'dnssec'] as const;
const UPDATE_TYPES = [
  'contact',
  'nameservers',
  'transferBlock',
  'block',
  'whoisPrivacy',
  'viewWhois',
  'renewalMode',
  'tag',
] as const;
export const CONTACT_ROLES = ['owner', 'admin', 'tech', 'billing'] as const;

export interface DomainSummary {
  name: string;
  status: (typeof DOMAIN_STATUS)[number];
  tld: string;
  tsExpir: string;
  domainID: number;
}
export interface Nameserver {
  order: number;
  name: string;
  ipv4: string;
}
export interface GlueRecord {
  name: string;
  ipv4: string;
  ipv6?: string;
}
export interface DnssecEntry {
  keytag: number;
  algorithm: number;
  digesttype: number;
  digest: string;
}
export interface DomainInfo extends DomainSummary {
  tsCreate?: string;
  renewable?: boolean;
  renewalMode?: (typeof RENEWAL_MODES)[number];
  modifyBlock?: boolean;
  transferBlock?: boolean;
  whoisPrivacy?: boolean;
  viewWhois?: boolean;
  authcodeCheck?: boolean;
  serviceAssociated?: boolean;
  tag?: string;
  ownerverification?: (typeof OWNER_VERIFICATION)[number];
  transferStatus?: (typeof TRANSFER_STATUS)[number];
  contactOwner?: Contact;
  contactAdmin?: Contact;
  contactTech?: Contact;
  contactBilling?: Contact;
  defaultNS?: boolean;
  nameservers?: Nameserver[];
  authcode?: string;
  service?: { name: string; type: string; productkey: string; status: string; tsExpir: string };
  gluerecords?: GlueRecord[];
  dnssec?: { active: boolean; entries: DnssecEntry[] };
}
export interface Billing {
  total: number;
  currency: string;
}
export interface CheckData {
  domains: {
    name: string;
    punycode: string;
    tld: string;
    available: boolean;
    premium: boolean;
    price: number;
    currency: string;
  }[];
}
export interface TransferCheckData {
  domains: {
    name: string;
    punycode: string;
    tld: string;
    transferavail: boolean;
    transfermsg: string[];
    price: number;
    currency: string;
  }[];
}
export interface CreateData {
  billing: Billing;
  domains: (DomainSummary & { period?: number; inPromo?: boolean })[];
}
export interface RenewData {
  billing: Billing;
  domains: (DomainSummary & { renewPeriod: number; inPromo?: boolean })[];
}
export interface HistoryEntry {
  ts: string;
  ip: string;
  user?: string;
  title: string;
  message: string;
}
export interface DeletedDomain {
  name: string;
  tld: string;
  tsDeleted: string;
  domainID: number;
  info: string;
}

const domainOrId = { domain: str('domain name'), domainID: int('domain ID') };
const byDomain = oneOfParams('domain', 'domainID');
type RoleContactParams = ContactParams<`${(typeof CONTACT_ROLES)[number]}Contact`, true>;
const contactsParams = (): RoleContactParams =>
  Object.assign({}, ...CONTACT_ROLES.map((r) => contactParams(`${r}Contact`))) as RoleContactParams;
const contactsRules = (ownerRequired: boolean) =>
  CONTACT_ROLES.flatMap((r) => contactRules(`${r}Contact`, ownerRequired && r === 'owner'));
const nameserversRule = (keywords: readonly string[]) => listLength('nameservers', 2, 7, keywords);
const nameserversParam = (describe: string) => str(describe);

/** TLD-specific extras (aero, ru, fr, jobs, travel/pro/law…, xxx) accepted by create; jobs and ru also by transfer. */
type JobsParams = Record<
  `jobs${'Owner' | 'Admin' | 'Tech' | 'Billing'}${'IsAssocMember' | 'Website' | 'Title' | 'Industrytype'}`,
  ParamSpec<string> | ParamSpec<boolean>
>;
const jobsParams = (): JobsParams => {
  const params: Record<string, ParamSpec> = {};
  for (const role of ['Owner', 'Admin', 'Tech', 'Billing']) {
    params[`jobs${role}IsAssocMember`] = bool('member of the professional association (.jobs)');
    params[`jobs${role}Website`] = str('website of the contact (.jobs)');
    params[`jobs${role}Title`] = str('title of the contact (.jobs)');
    params[`jobs${role}Industrytype`] = str('industry type of the contact (.jobs)');
  }
  return params as JobsParams;
};
const ruParams = {
  ownerDateOfBirth: str('owner birth date, for individual owners (.ru)', formats.date),
  ruIssuer: str("issuer of the owner's identification, for individual owners (.ru)"),
  ruIssuerDate: str('issue date of the identification, for individual owners (.ru)', formats.date),
};
const createExtras = {
  aeroId: str('sector registry member ID (.aero)'),
  aeroPass: str('sector registry member password (.aero)'),
  domainIntendedUse: str('intended use of the domain'),
  ...ruParams,
  frTradeMark: str('trademark number, for an organization owner (.fr)'),
  frSirenNumber: str('company registration number (.fr)'),
  ...jobsParams(),
  coreContactInfo: str('contact information of industry bodies for complaints or abuse'),
  ltdaAuthority: str("authority certifying the owner's profession"),
  ltdaLicenseNumber: str("owner's license number"),
  xxxClass: oneOf(['default', 'membership', 'nonResolver'] as const, 'community class (.xxx)'),
  xxxName: str('name for community registration (.xxx, class default)'),
  xxxEmail: str('e-mail for community registration (.xxx, class default)', formats.email),
  xxxId: str('community registry member ID (.xxx, class membership)'),
};
const aeroRules = [
  requiredIf('aeroPass', (p) => Boolean(p.aeroId), 'with aeroId'),
  requiredIf('aeroId', (p) => Boolean(p.aeroPass), 'with aeroPass'),
];
const xxxRules = [
  requiredIf('xxxName', (p) => p.xxxClass === 'default', 'when xxxClass is default'),
  requiredIf('xxxEmail', (p) => p.xxxClass === 'default', 'when xxxClass is default'),
  requiredIf('xxxId', (p) => p.xxxClass === 'membership', 'when xxxClass is membership'),
];
const ruRules = ['ruIssuer', 'ruIssuerDate', 'ownerDateOfBirth'].map((name) =>
  requiredIf(
    name,
    (p) =>
      p.ownerContactType === 'individual' &&
      ['ruIssuer', 'ruIssuerDate', 'ownerDateOfBirth'].some((n) => Boolean(p[n])),
    'for an individual .ru owner (with the other ru fields)',
  ),
);

const summary = <R = DomainSummary & { messages?: string[] }>() => op<R>();
const glueParams = (withIps: boolean) => ({
  ...domainOrId,
  name: required(str('DNS server host name')),
  ...(withIps ? { ipv4: required(str('IPv4 address')), ipv6: str('IPv6 address') } : {}),
});
const dnssecParams = {
  ...domainOrId,
  keytag: required(int()),
  algorithm: required(int()),
  digesttype: required(int()),
  digest: required(str()),
};

export const domain = {
  check: op<CheckData>()({
    action: 'check',
    describe: 'Availability and price (abusive use may ban the account)',
    params: { domain: required(str('domain, in punycode', formats.domain)) },
    idempotent: true,
  }),
  checkForTransfer: op<TransferCheckData>()({
    action: 'checkfortransfer',
    describe: 'Whether a domain can be transferred in, and the price',
    params: { domain: required(str('domain, in punycode', formats.domain)) },
    idempotent: true,
  }),
  create: op<CreateData>()({
    action: 'create',
    describe: 'Register a domain (spends balance; domain/check first)',
    params: {
      domain: required(str('domain name', formats.domain)),
      period: int('years (default: the TLD minimum)', { min: 1, max: 10 }),
      premium: bool('must be true for a premium domain'),
      nameservers: nameserversParam('parking (default), or 2 to 7 comma-separated servers'),
      ...contactsParams(),
      ...createExtras,
    },
    rules: [nameserversRule(['parking']), ...contactsRules(true), ...aeroRules, ...xxxRules, ...ruRules],
    contactRoles: CONTACT_ROLES,
    spends: true,
  }),
  transfer: op<CreateData>()({
    action: 'transfer',
    describe: 'Transfer a domain in (spends balance; domain/checkfortransfer first)',
    params: {
      domain: required(str('domain name', formats.domain)),
      nameservers: nameserversParam('parking (default), keepns, or 2 to 7 comma-separated servers'),
      authcode: str('authcode where the TLD needs it'),
      foacontact: oneOf(['owner', 'admin'] as const, 'who receives the FOA mail (default owner)'),
      ...contactsParams(),
      ...ruParams,
      ...jobsParams(),
    },
    rules: [nameserversRule(['parking', 'keepns']), ...contactsRules(true), ...ruRules],
    contactRoles: CONTACT_ROLES,
    spends: true,
  }),
  transferRestart: summary()({
    action: 'transferrestart',
    describe: 'Restart a transfer, optionally with a new authcode',
    params: { ...domainOrId, authcode: str('new authcode'), foacontact: oneOf(['owner', 'admin'] as const) },
    rules: [byDomain],
  }),
  update: summary()({
    action: 'update',
    describe: 'Change one aspect of a domain, chosen by updateType',
    params: {
      ...domainOrId,
      updateType: required(oneOf(UPDATE_TYPES)),
      nameservers: nameserversParam('default, or 2 to 7 comma-separated servers (updateType nameservers)'),
      transferBlock: bool('(updateType transferBlock)'),
      block: bool('modification lock (updateType block)'),
      whoisPrivacy: bool('(updateType whoisPrivacy)'),
      viewWhois: bool('show data in the public Whois (updateType viewWhois)'),
      renewalMode: oneOf(RENEWAL_MODES, '(updateType renewalMode)'),
      tag: str('comma-separated tags (updateType tag)'),
      ...contactsParams(),
    },
    rules: [
      byDomain,
      nameserversRule(['default']),
      ...(['nameservers', 'transferBlock', 'block', 'whoisPrivacy', 'viewWhois', 'renewalMode', 'tag'] as const).map(
        (name) => requiredIf(name, (p) => p.updateType === name, `when updateType is ${name}`),
      ),
      ...contactsRules(false),
    ],
    contactRoles: CONTACT_ROLES,
    idempotent: true,
  }),
  updateNameservers: summary()({
    action: 'updatenameservers',
    describe: "Set a domain's nameservers",
    params: { ...domainOrId, nameservers: required(nameserversParam('default, or 2 to 7 comma-separated servers')) },
    rules: [byDomain, nameserversRule(['default'])],
    idempotent: true,
  }),
  updateContacts: summary()({
    action: 'updatecontacts',
    describe: "Change a domain's contacts",
    params: { ...domainOrId, ...contactsParams() },
    rules: [byDomain, ...contactsRules(false)],
    contactRoles: CONTACT_ROLES,
    idempotent: true,
  }),
  glueRecordCreate: summary<DomainSummary & { gluerecords: GlueRecord[] }>()({
    action: 'gluerecordcreate',
    describe: 'Create a glue record',
    params: glueParams(true),
    rules: [byDomain],
  }),
  glueRecordUpdate: summary<DomainSummary & { gluerecords: GlueRecord[] }>()({
    action: 'gluerecordupdate',
    describe: 'Change a glue record',
    params: glueParams(true),
    rules: [byDomain],
    idempotent: true,
  }),
  glueRecordDelete: summary<DomainSummary & { gluerecords: GlueRecord[] }>()({
    action: 'gluerecorddelete',
    describe: 'Delete a glue record',
    params: glueParams(false),
    rules: [byDomain],
  }),
  list: op<{ queryInfo: QueryInfo; domains: DomainInfo[] }>()({
    action: 'list',
    describe: 'List domains',
    params: {
      ...paging,
      domain: str('exact name'),
      word: str('substring'),
      tld: str(),
      renewable: bool('in renewal period'),
      infoType: oneOf(['status', 'contact', 'nameservers', 'service', 'gluerecords'] as const, 'widen each entry'),
      owner: str('owner contact ID'),
      tag: str(),
      status: oneOf(DOMAIN_STATUS),
      ownerverification: oneOf(OWNER_VERIFICATION),
    },
    listKey: 'domains',
    idempotent: true,
  }),
  getInfo: op<DomainInfo>()({
    action: 'getinfo',
    describe: "A domain's data, by infoType",
    params: { ...domainOrId, infoType: oneOf(INFO_TYPES, 'default status') },
    rules: [byDomain],
    idempotent: true,
  }),
  getAuthcode: op<DomainSummary & { authcode: string }>()({
    action: 'getauthcode',
    describe: "A domain's authcode",
    params: domainOrId,
    rules: [byDomain],
    idempotent: true,
  }),
  getNameservers: op<DomainSummary & { defaultNS: boolean; nameservers: Nameserver[] }>()({
    action: 'getnameservers',
    describe: "A domain's nameservers",
    params: domainOrId,
    rules: [byDomain],
    idempotent: true,
  }),
  getGlueRecords: op<DomainSummary & { gluerecords: GlueRecord[] }>()({
    action: 'getgluerecords',
    describe: "A domain's glue records",
    params: domainOrId,
    rules: [byDomain],
    idempotent: true,
  }),
  getDnssec: op<DomainSummary & { dnssec: { active: boolean; entries: DnssecEntry[] } }>()({
    action: 'getdnssec',
    describe: "A domain's DNSSEC entries",
    params: domainOrId,
    rules: [byDomain],
    idempotent: true,
  }),
  whois: op<{ domain: string; whoisData: string }>()({
    action: 'whois',
    describe: 'Public Whois of a domain of the account',
    params: { domain: required(str('domain, in punycode', formats.domain)) },
    idempotent: true,
  }),
  getHistory: op<DomainSummary & { queryInfo: QueryInfo; history: HistoryEntry[] }>()({
    action: 'gethistory',
    describe: "A domain's history",
    params: { ...domainOrId, ...paging },
    rules: [byDomain],
    listKey: 'history',
    idempotent: true,
  }),
  listDeleted: op<{ queryInfo: QueryInfo; domains: DeletedDomain[] }>()({
    action: 'listdeleted',
    describe: 'Deleted domains',
    params: { ...paging },
    listKey: 'domains',
    idempotent: true,
  }),
  dnssecCreate: summary<DomainSummary & { dnssec: { active: boolean; entries: DnssecEntry[] } }>()({
    action: 'dnsseccreate',
    describe: 'Add a DNSSEC entry',
    params: dnssecParams,
    rules: [byDomain],
  }),
  dnssecDelete: summary<DomainSummary & { dnssec: { active: boolean; entries: DnssecEntry[] } }>()({
    action: 'dnssecdelete',
    describe: 'Remove a DNSSEC entry',
    params: dnssecParams,
    rules: [byDomain],
  }),
  renew: op<RenewData>()({
    action: 'renew',
    describe: 'Renew a domain (spends balance)',
    params: {
      ...domainOrId,
      curExpDate: required(str('current expiry date', formats.date)),
      period: int('years (default: the TLD minimum)', { min: 1, max: 10 }),
    },
    rules: [byDomain],
    spends: true,
  }),
  resendVerificationMail: summary()({
    action: 'resendverificationmail',
    describe: "Resend the owner's verification mail",
    params: domainOrId,
    rules: [byDomain],
  }),
  resendFoaMail: summary()({
    action: 'resendfoamail',
    describe: 'Resend the FOA authorization mail',
    params: domainOrId,
    rules: [byDomain],
  }),
  resetFoa: summary()({
    action: 'resetfoa',
    describe: 'Restart the transfer authorization (only during a transfer)',
    params: domainOrId,
    rules: [byDomain],
  }),
};
