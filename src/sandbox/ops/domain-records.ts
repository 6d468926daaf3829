// The sandbox's domains as the operations see them: lookup by name or ID, TLD prices,
// summaries and infoType views, contacts by ID or data, nameservers, history.
import { CONTACT_ROLES } from '../../api/endpoints/domain.js';
import { now, today, type SandboxDomain, type SandboxModel } from '../model.js';
import { fail, nextId, type OperationRequest } from './common.js';
import { contactFromFields, findContact } from './contact.js';

export const RENEWABLE = new Set(['active', 'renewed', 'expired-renewgrace', 'expired-redemption']);
export const IN_TRANSFER = new Set(['transfer-init', 'transfer-pending']);

export function findDomain({ model, fields }: OperationRequest): SandboxDomain {
  const found = fields.domainID
    ? model.domains.find((d) => d.domainID === Number(fields.domainID))
    : model.domains.find((d) => d.name === fields.domain?.toLowerCase());
  return (
    found ?? fail(2008, 'Domain not found', `${fields.domain ?? `domain ${fields.domainID}`} is not in this account`)
  );
}

export function tldOf(model: SandboxModel, name: string) {
  const labels = name.split('.');
  const tld =
    model.tlds.find((t) => t.tld === labels.slice(-2).join('.')) ?? model.tlds.find((t) => t.tld === labels.at(-1));
  return tld ?? fail(2002, 'TLD not supported', `.${labels.at(-1)} is not offered`);
}

export const summary = (d: SandboxDomain) => ({
  name: d.name,
  status: d.status,
  tld: d.tld,
  tsExpir: d.tsExpir,
  domainID: d.domainID,
});
const nameservers = (d: SandboxDomain) =>
  d.nameservers.map((name, i) => ({
    order: i + 1,
    name,
    ipv4: d.gluerecords.find((g) => g.name === name)?.ipv4 ?? '',
  }));
export const record = (request: OperationRequest, d: SandboxDomain, title: string, message: string) =>
  d.history.push({ ts: now(), ip: request.callerAddress, user: request.model.account.apiUser, title, message });

/** Contacts given by ID or by data; defaults: admin from owner, tech and billing from admin. */
export function contactsFrom(
  request: OperationRequest,
  current?: SandboxDomain['contacts'],
): SandboxDomain['contacts'] {
  const { model, fields } = request;
  const chosen: Partial<SandboxDomain['contacts']> = {};
  for (const role of CONTACT_ROLES) {
    const prefix = `${role}Contact`;
    if (fields[`${prefix}ID`]) chosen[role] = findContact(model, fields[`${prefix}ID`]).contactID;
    else if (fields[`${prefix}FirstName`]) chosen[role] = contactFromFields(model, fields, prefix).contactID;
  }
  const owner =
    chosen.owner ?? current?.owner ?? fail(101, 'Syntax error: parameter fault', 'the owner contact is required');
  const admin = chosen.admin ?? current?.admin ?? owner;
  return {
    owner,
    admin,
    tech: chosen.tech ?? current?.tech ?? admin,
    billing: chosen.billing ?? current?.billing ?? admin,
  };
}

export function setNameservers(d: SandboxDomain, text: string | undefined) {
  if (!text || text === 'parking' || text === 'default' || text === 'keepns') {
    if (text !== 'keepns') {
      d.nameservers =
        text === 'parking'
          ? ['parking1.dondominio.com', 'parking2.dondominio.com']
          : ['ns1.dondominio.com', 'ns2.dondominio.com'];
      d.defaultNS = text !== 'parking';
    }
    return;
  }
  d.nameservers = text.split(',').map((s) => s.trim());
  d.defaultNS = false;
}

export function newDomain(request: OperationRequest, name: string, status: string): SandboxDomain {
  const { model } = request;
  const d: SandboxDomain = {
    domainID: nextId(model),
    name,
    tld: tldOf(model, name).tld,
    status,
    tsCreate: today(),
    tsExpir: '',
    renewalMode: 'autorenew',
    modifyBlock: false,
    transferBlock: false,
    whoisPrivacy: false,
    viewWhois: true,
    tag: '',
    authcode: `AUTH-${model.nextId}-${name.length}Qz`,
    nameservers: [],
    defaultNS: true,
    gluerecords: [],
    dnssec: [],
    contacts: contactsFrom(request),
    ownerverification: 'inprocess',
    history: [],
  };
  model.domains.push(d);
  return d;
}

export function info(d: SandboxDomain, model: SandboxModel, infoType = 'status'): Record<string, unknown> {
  const base = summary(d);
  switch (infoType) {
    case 'contact': {
      const c = (id: string) => model.contacts.find((x) => x.contactID === id);
      return {
        ...base,
        contactOwner: c(d.contacts.owner),
        contactAdmin: c(d.contacts.admin),
        contactTech: c(d.contacts.tech),
        contactBilling: c(d.contacts.billing),
      };
    }
    case 'nameservers':
      return { ...base, defaultNS: d.defaultNS, nameservers: nameservers(d) };
    case 'authcode':
      return { ...base, authcode: d.authcode };
    case 'service': {
      const s = model.services.find((x) => x.name === d.serviceName);
      return {
        ...base,
        service: s
          ? { name: s.name, type: s.type, productkey: s.productkey, status: s.status, tsExpir: s.tsExpir }
          : {},
      };
    }
    case 'gluerecords':
      return { ...base, gluerecords: d.gluerecords };
    case 'dnssec':
      return { ...base, dnssec: { active: d.dnssec.length > 0, entries: d.dnssec } };
    default:
      return {
        ...base,
        tsCreate: d.tsCreate,
        renewable: RENEWABLE.has(d.status),
        renewalMode: d.renewalMode,
        modifyBlock: d.modifyBlock,
        transferBlock: d.transferBlock,
        whoisPrivacy: d.whoisPrivacy,
        viewWhois: d.viewWhois,
        authcodeCheck: true,
        serviceAssociated: Boolean(d.serviceName),
        tag: d.tag,
        ownerverification: d.ownerverification,
        ...(d.transferStatus ? { transferStatus: d.transferStatus } : {}),
      };
  }
}
