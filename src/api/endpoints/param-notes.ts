// A description for every parameter the table declares without one, by its name: `ddedge api
// <module> <action> --help` and the SDK's table describe each (`--filter` had none). Names mean
// the same in every module that uses them; contact fields follow <role>Contact<Field>.
import type { ParamSpec } from '../params.js';

const NOTES: Record<string, string> = {
  filter: 'only entries whose name contains this text',
  password: 'the password to set',
  certificateID: 'certificate ID, as ssl list gives it',
  commonName: "the certificate's main name (CN), e.g. www.example.com",
  type: 'the kind of entry (one of the values listed)',
  ftpPath: "folder, relative to the hosting's root",
  status: 'by status',
  tld: 'by top-level domain, e.g. es',
  renewable: 'only those that can be renewed now',
  productkey: 'the plan, as service getinfo shows it',
  productID: 'SSL product ID, as ssl productlist gives it',
  value: "the entry's value (address, target, text)",
  name: "the entry's name",
  updateType: 'what to change (one of the values listed)',
  keytag: 'DS record: key tag',
  algorithm: 'DS record: DNSSEC algorithm number',
  digesttype: 'DS record: digest type number',
  digest: 'DS record: the digest, in hexadecimal',
  destination: 'where the redirect leads (a URL)',
  origin: 'what is redirected (a path or a name)',
  contactID: 'contact ID, as contact list gives it',
  country: 'by country (ISO 3166 code, e.g. ES)',
  daaccepted: 'by whether the contact accepted the data terms',
  email: 'by e-mail address',
  identNumber: 'by identity document number',
  verificationstatus: 'by verification status',
  ownerverification: "by the owner's verification status",
  tag: 'by tag',
  foacontact: 'who receives the transfer authorisation e-mail (FOA)',
  enabled: 'on (true) or off (false)',
  renewalMode: 'autorenew or manual',
  emailAddress: 'CSR: e-mail address',
  localityName: 'CSR: city (L)',
  organizationName: 'CSR: organisation (O)',
  organizationalUnitName: 'CSR: department (OU)',
  stateOrProvinceName: 'CSR: state or province (ST)',
  includeAlternativeMethods: 'also list the validation methods other than e-mail',
  csrData: 'the certificate signing request, PEM',
  keyData: 'the private key, PEM',
  multidomain: 'only products for several names',
  trial: 'only trial products',
  wildcard: 'only wildcard products',
  tableType: 'which table',
};

const CONTACT_FIELDS: Record<string, string> = {
  Type: 'individual or organization',
  Address: 'street address',
  City: 'city',
  PostalCode: 'postal code',
};

function noteFor(name: string): string | undefined {
  if (NOTES[name]) return NOTES[name];
  const contact = /^(owner|admin|tech|billing|org)?(?:Contact)?(Type|Address|City|PostalCode)$/.exec(name);
  if (!contact) return undefined;
  return `${contact[1] ? `${contact[1]} contact: ` : ''}${CONTACT_FIELDS[contact[2]!]}`;
}

/** The parameters with a description each: their own, else the note for their name. */
export function describedParams<P extends Record<string, ParamSpec>>(params: P): P {
  const entries = Object.entries(params).map(([name, spec]) => [
    name,
    spec.describe ? spec : { ...spec, describe: noteFor(name) },
  ]);
  return Object.fromEntries(entries) as P;
}
