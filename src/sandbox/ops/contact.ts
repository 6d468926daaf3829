import type { Contact } from '../../api/endpoints/contact.js';
import { contains, fail, matches, nextId, page, truthy, type Operations } from './common.js';
import type { SandboxModel } from '../model.js';

export function findContact(model: SandboxModel, id: string | undefined): Contact {
  return (
    model.contacts.find((c) => c.contactID === id) ?? fail(3001, 'Contact does not exist', `contact ${id} not found`)
  );
}

/** A contact from prefixed fields (owner/admin/… data of domain operations, or bare in contact/create). */
export function contactFromFields(model: SandboxModel, fields: Record<string, string>, prefix: string): Contact {
  const get = (name: string) => fields[`${prefix}${name}`] ?? '';
  const contact: Contact = {
    contactID: `C-${nextId(model)}`,
    contactType: get('Type') as Contact['contactType'],
    firstName: get('FirstName'),
    lastName: get('LastName'),
    orgName: get('OrgName'),
    orgType: get('OrgType') ? Number(get('OrgType')) : '',
    identNumber: get('IdentNumber'),
    email: get('Email'),
    phone: get('Phone'),
    fax: get('Fax'),
    address: get('Address'),
    postalCode: get('PostalCode'),
    city: get('City'),
    state: get('State'),
    country: get('Country'),
    // Spanish owners are verified by e-mail; the others need nothing.
    verificationstatus: get('Country') === 'ES' ? 'inprocess' : 'notapplicable',
    daaccepted: false,
  };
  model.contacts.push(contact);
  return contact;
}

const summary = (c: Contact) => ({
  contactID: c.contactID,
  contactType: c.contactType,
  contactName: c.contactType === 'organization' ? c.orgName : `${c.firstName} ${c.lastName}`,
  identNumber: c.identNumber,
  email: c.email,
  country: c.country,
  verificationstatus: c.verificationstatus,
  daaccepted: c.daaccepted,
});

export const contactOps: Operations = {
  create: {
    writes: true,
    handle: ({ model, fields }) => {
      const { esNicHandle: _h, ...contact } = contactFromFields(model, fields, '');
      return { ...contact, messages: ['Contact created'] };
    },
  },
  list: {
    handle: ({ model, fields }) => {
      const found = model.contacts.filter(
        (c) =>
          contains(`${c.firstName} ${c.lastName} ${c.orgName}`, fields.name) &&
          matches(c.email, fields.email) &&
          matches(c.country, fields.country) &&
          matches(c.identNumber, fields.identNumber) &&
          matches(c.verificationstatus, fields.verificationstatus) &&
          (fields.daaccepted === undefined || c.daaccepted === truthy(fields.daaccepted)),
      );
      const { slice, queryInfo } = page(found.map(summary), fields);
      return { queryInfo, contacts: slice };
    },
  },
  getinfo: { handle: ({ model, fields }) => findContact(model, fields.contactID) },
  resendverificationmail: {
    handle: ({ model, fields }) => {
      const contact = findContact(model, fields.contactID);
      if (contact.verificationstatus !== 'inprocess' && contact.verificationstatus !== 'failed') {
        fail(
          3003,
          'Invalid operation: contact verification status',
          `contact ${contact.contactID} is ${contact.verificationstatus}`,
        );
      }
      const { daaccepted: _d, ...rest } = summary(contact);
      return rest;
    },
  },
};
