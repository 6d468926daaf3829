import { bool, oneOf, required, str } from '../params.js';
import { contactFromInput, contactParams, contactRules } from './contact-fields.js';
import { op, paging, type QueryInfo } from './types.js';

export const VERIFICATION_STATUS = ['verified', 'notapplicable', 'inprocess', 'failed'] as const;

export interface Contact {
  contactID: string;
  contactType: 'individual' | 'organization';
  firstName: string;
  lastName: string;
  orgName: string;
  orgType: number | '';
  identNumber: string;
  email: string;
  phone: string;
  fax: string;
  address: string;
  postalCode: string;
  city: string;
  state: string;
  country: string;
  verificationstatus: (typeof VERIFICATION_STATUS)[number];
  daaccepted: boolean;
  esNicHandle?: string;
}
export interface ContactSummary {
  contactID: string;
  contactType: string;
  contactName: string;
  identNumber?: string;
  email: string;
  country: string;
  verificationstatus: string;
  daaccepted?: boolean;
}

export const contact = {
  create: op<Contact>()({
    action: 'create',
    describe: 'Create a contact',
    params: contactParams('', false),
    rules: contactRules('', true, false),
    // The SDK takes the contact as everywhere else ({ type, firstName, … }); the API names the fields Type, FirstName,
    // ….
    prepare: contactFromInput,
  }),
  list: op<{ queryInfo: QueryInfo; contacts: ContactSummary[] }>()({
    action: 'list',
    describe: 'List contacts',
    params: {
      ...paging,
      name: str('substring of the name or organization'),
      email: str(),
      country: str(),
      identNumber: str(),
      verificationstatus: oneOf(VERIFICATION_STATUS),
      daaccepted: bool(),
    },
    listKey: 'contacts',
    idempotent: true,
  }),
  getInfo: op<Contact>()({
    action: 'getinfo',
    describe: "A contact's data",
    params: { contactID: required(str()), infoType: oneOf(['data'] as const, 'default data') },
    idempotent: true,
  }),
  resendVerificationMail: op<ContactSummary>()({
    action: 'resendverificationmail',
    describe: 'Resend the verification mail to a contact',
    params: { contactID: required(str()) },
  }),
};
