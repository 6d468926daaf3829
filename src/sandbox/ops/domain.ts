// Domains with their state: create -> register-init; renew -> renewed with tsExpir moved and
// the balance charged; transfer -> transfer-init; resetfoa, resendfoamail and transferrestart
// only during a transfer; changes refused while the modification lock is on.
import { yearsFrom, type SandboxDomain } from '../model.js';
import { charge, contains, fail, matches, page, truthy, type OperationRequest, type Operations } from './common.js';
import {
  contactsFrom,
  findDomain,
  IN_TRANSFER,
  info,
  newDomain,
  record,
  RENEWABLE,
  setNameservers,
  summary,
  tldOf,
} from './domain-records.js';

function unlocked(d: SandboxDomain) {
  if (d.modifyBlock)
    fail(2202, 'Update blocked', `${d.name} has the modification lock on; update it with updateType=block first`);
}

function glue(request: OperationRequest, change: (d: SandboxDomain, name: string) => string) {
  const d = findDomain(request);
  unlocked(d);
  const message = change(d, request.fields.name!.toLowerCase());
  record(request, d, 'gluerecord', message);
  return { ...summary(d), gluerecords: d.gluerecords, messages: [message] };
}

function dnssec(request: OperationRequest, add: boolean) {
  const d = findDomain(request);
  unlocked(d);
  const entry = {
    keytag: Number(request.fields.keytag),
    algorithm: Number(request.fields.algorithm),
    digesttype: Number(request.fields.digesttype),
    digest: request.fields.digest!,
  };
  const index = d.dnssec.findIndex((e) => e.keytag === entry.keytag && e.digest === entry.digest);
  if (add) {
    if (index >= 0) fail(2200, 'Update error', 'this DNSSEC entry exists already');
    d.dnssec.push(entry);
  } else {
    if (index < 0) fail(2200, 'Update error', 'no such DNSSEC entry');
    d.dnssec.splice(index, 1);
  }
  return {
    ...summary(d),
    dnssec: { active: d.dnssec.length > 0, entries: d.dnssec },
    messages: [add ? 'DNSSEC entry added' : 'DNSSEC entry removed'],
  };
}

function duringTransfer(request: OperationRequest, action: (d: SandboxDomain) => string) {
  const d = findDomain(request);
  if (!IN_TRANSFER.has(d.status)) fail(2201, 'Update not allowed', `${d.name} is not in transfer (status ${d.status})`);
  const message = action(d);
  record(request, d, 'transfer', message);
  return { ...summary(d), messages: [message] };
}

export const domainOps: Operations = {
  check: {
    handle: ({ model, fields }) => {
      const name = fields.domain!.toLowerCase();
      const tld = tldOf(model, name);
      const premium = model.premiumWords.some((w) => name.split('.')[0]!.includes(w));
      const available = !model.taken.includes(name) && !model.domains.some((d) => d.name === name);
      return {
        domains: [
          {
            name,
            punycode: name,
            tld: tld.tld,
            available,
            premium,
            price: premium ? tld.create * 100 : tld.create,
            currency: model.account.currency,
          },
        ],
      };
    },
  },
  checkfortransfer: {
    handle: ({ model, fields }) => {
      const name = fields.domain!.toLowerCase();
      const tld = tldOf(model, name);
      const reasons = model.domains.some((d) => d.name === name)
        ? ['the domain is already in this account']
        : !model.taken.includes(name)
          ? ['the domain is not registered']
          : [];
      return {
        domains: [
          {
            name,
            punycode: name,
            tld: tld.tld,
            transferavail: reasons.length === 0 && tld.transfer > 0,
            transfermsg: reasons,
            price: tld.transfer,
            currency: model.account.currency,
          },
        ],
      };
    },
  },
  create: {
    writes: true,
    handle: (request) => {
      const { model, fields } = request;
      const name = fields.domain!.toLowerCase();
      const tld = tldOf(model, name);
      if (model.taken.includes(name) || model.domains.some((d) => d.name === name))
        fail(2010, 'Create error: taken', `${name} is not available`);
      const premium = model.premiumWords.some((w) => name.split('.')[0]!.includes(w));
      if (premium && !truthy(fields.premium))
        fail(2011, 'Create error: premium domain', `${name} is premium: send premium=true`);
      const period = Number(fields.period ?? tld.years.split(',')[0]);
      if (!tld.years.split(',').includes(String(period)))
        fail(2009, 'Create error', `.${tld.tld} registers for ${tld.years} years`);
      const billing = charge(model, (premium ? tld.create * 100 : tld.create) * period, `registering ${name}`);
      const d = newDomain(request, name, 'register-init');
      setNameservers(d, fields.nameservers ?? 'parking');
      record(request, d, 'create', `Domain ${name} registration requested for ${period} years`);
      return { billing, domains: [{ ...summary(d), period }] };
    },
  },
  transfer: {
    writes: true,
    handle: (request) => {
      const { model, fields } = request;
      const name = fields.domain!.toLowerCase();
      const tld = tldOf(model, name);
      if (model.domains.some((d) => d.name === name))
        fail(2012, 'Transfer error', `${name} is already in this account`);
      if (tld.transfer <= 0) fail(2005, 'Transfer not allowed', `.${tld.tld} does not transfer through the API`);
      if (tld.authcodereq && !fields.authcode) fail(2012, 'Transfer error', `.${tld.tld} needs the authcode`);
      const billing = charge(model, tld.transfer, `transferring ${name}`);
      const d = newDomain(request, name, 'transfer-init');
      d.transferStatus = 'init';
      setNameservers(d, fields.nameservers ?? 'parking');
      record(
        request,
        d,
        'transfer',
        `Transfer of ${name} requested; FOA mail sent to the ${fields.foacontact ?? 'owner'}`,
      );
      return { billing, domains: [summary(d)] };
    },
  },
  transferrestart: {
    writes: true,
    handle: (r) =>
      duringTransfer(r, (d) => {
        d.transferStatus = 'init';
        if (r.fields.authcode) d.authcode = r.fields.authcode;
        return 'Transfer restarted';
      }),
  },
  update: {
    writes: true,
    handle: (request) => {
      const d = findDomain(request);
      const { fields } = request;
      const type = fields.updateType!;
      if (type !== 'block') unlocked(d);
      switch (type) {
        case 'contact':
          d.contacts = contactsFrom(request, d.contacts);
          break;
        case 'nameservers':
          setNameservers(d, fields.nameservers);
          break;
        case 'transferBlock':
        case 'block':
        case 'whoisPrivacy':
        case 'viewWhois': {
          const key = type === 'block' ? 'modifyBlock' : type;
          d[key] = truthy(fields[type]);
          break;
        }
        case 'renewalMode':
          d.renewalMode = fields.renewalMode as SandboxDomain['renewalMode'];
          break;
        case 'tag':
          d.tag = fields.tag!;
          break;
      }
      record(request, d, 'update', `${type} updated`);
      return { ...summary(d), messages: [`${type} updated`] };
    },
  },
  updatenameservers: {
    writes: true,
    handle: (request) => {
      const d = findDomain(request);
      unlocked(d);
      setNameservers(d, request.fields.nameservers);
      record(request, d, 'update', 'nameservers updated');
      return summary(d);
    },
  },
  updatecontacts: {
    writes: true,
    handle: (request) => {
      const d = findDomain(request);
      unlocked(d);
      d.contacts = contactsFrom(request, d.contacts);
      record(request, d, 'update', 'contacts updated');
      return summary(d);
    },
  },
  gluerecordcreate: {
    writes: true,
    handle: (r) =>
      glue(r, (d, name) => {
        if (d.gluerecords.some((g) => g.name === name))
          fail(2200, 'Update error', `glue record ${name} exists already`);
        d.gluerecords.push({ name, ipv4: r.fields.ipv4!, ...(r.fields.ipv6 ? { ipv6: r.fields.ipv6 } : {}) });
        return `glue record ${name} created`;
      }),
  },
  gluerecordupdate: {
    writes: true,
    handle: (r) =>
      glue(r, (d, name) => {
        const g = d.gluerecords.find((x) => x.name === name) ?? fail(2200, 'Update error', `no glue record ${name}`);
        g.ipv4 = r.fields.ipv4!;
        if (r.fields.ipv6) g.ipv6 = r.fields.ipv6;
        return `glue record ${name} updated`;
      }),
  },
  gluerecorddelete: {
    writes: true,
    handle: (r) =>
      glue(r, (d, name) => {
        const before = d.gluerecords.length;
        d.gluerecords = d.gluerecords.filter((g) => g.name !== name);
        if (d.gluerecords.length === before) fail(2200, 'Update error', `no glue record ${name}`);
        return `glue record ${name} deleted`;
      }),
  },
  list: {
    handle: ({ model, fields }) => {
      const found = model.domains.filter(
        (d) =>
          matches(d.name, fields.domain) &&
          contains(d.name, fields.word) &&
          matches(d.tld, fields.tld) &&
          matches(d.status, fields.status) &&
          matches(d.tag, fields.tag) &&
          matches(d.contacts.owner, fields.owner) &&
          matches(d.ownerverification, fields.ownerverification) &&
          (fields.renewable === undefined || RENEWABLE.has(d.status) === truthy(fields.renewable)),
      );
      const { slice, queryInfo } = page(found, fields);
      return { queryInfo, domains: slice.map((d) => (fields.infoType ? info(d, model, fields.infoType) : summary(d))) };
    },
  },
  getinfo: { handle: (r) => info(findDomain(r), r.model, r.fields.infoType) },
  getauthcode: { handle: (r) => info(findDomain(r), r.model, 'authcode') },
  getnameservers: { handle: (r) => info(findDomain(r), r.model, 'nameservers') },
  getgluerecords: { handle: (r) => info(findDomain(r), r.model, 'gluerecords') },
  getdnssec: { handle: (r) => info(findDomain(r), r.model, 'dnssec') },
  whois: {
    handle: ({ model, fields }) => {
      const d =
        model.domains.find((x) => x.name === fields.domain?.toLowerCase()) ??
        fail(2006, 'Whois not allowed', `${fields.domain} is not in this account`);
      const owner = model.contacts.find((c) => c.contactID === d.contacts.owner);
      const shown = d.whoisPrivacy || !d.viewWhois ? 'REDACTED FOR PRIVACY' : `${owner?.firstName} ${owner?.lastName}`;
      return {
        domain: d.name,
        whoisData:
          `Domain Name: ${d.name.toUpperCase()}\nRegistrar: DonDominio (sandbox)\nRegistrant: ` +
          `${shown}\nExpiry Date: ${d.tsExpir}\n${d.nameservers.map((n) => `Name Server: ${n}`).join('\n')}`,
      };
    },
  },
  gethistory: {
    handle: (r) => {
      const d = findDomain(r);
      const { slice, queryInfo } = page(d.history, r.fields);
      return { ...summary(d), queryInfo, history: slice };
    },
  },
  listdeleted: {
    handle: ({ model, fields }) => {
      const { slice, queryInfo } = page(model.deletedDomains, fields);
      return { queryInfo, domains: slice };
    },
  },
  dnsseccreate: { writes: true, handle: (r) => dnssec(r, true) },
  dnssecdelete: { writes: true, handle: (r) => dnssec(r, false) },
  renew: {
    writes: true,
    handle: (request) => {
      const d = findDomain(request);
      const { model, fields } = request;
      if (!RENEWABLE.has(d.status)) fail(2101, 'Renew not allowed', `${d.name} is ${d.status}`);
      const given = fields.curExpDate!.replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3');
      if (given !== d.tsExpir)
        fail(2100, 'Renew error', `curExpDate ${fields.curExpDate} does not match the expiry date ${d.tsExpir}`);
      const tld = tldOf(model, d.name);
      const period = Number(fields.period ?? tld.years.split(',')[0]);
      const billing = charge(model, tld.renew * period, `renewing ${d.name}`);
      d.tsExpir = yearsFrom(d.tsExpir, period);
      d.status = 'renewed';
      record(request, d, 'renew', `renewed for ${period} years`);
      // The real service has answered renewPeriod as a string: so does the sandbox.
      return { billing, domains: [{ ...summary(d), renewPeriod: String(period) }] };
    },
  },
  resendverificationmail: {
    writes: true,
    handle: (request) => {
      const d = findDomain(request);
      if (d.ownerverification === 'verified' || d.ownerverification === 'notapplicable')
        fail(
          2210,
          'Invalid operation: owner contact verification status',
          `the owner of ${d.name} is ${d.ownerverification}`,
        );
      d.ownerverification = 'inprocess';
      return { ...summary(d), messages: ['Verification mail sent'] };
    },
  },
  resendfoamail: { writes: true, handle: (r) => duringTransfer(r, () => 'FOA mail sent to the owner') },
  resetfoa: {
    writes: true,
    handle: (r) =>
      duringTransfer(r, (d) => {
        d.status = 'transfer-init';
        d.transferStatus = 'pending-foa';
        return 'Authorization process restarted';
      }),
  },
};
