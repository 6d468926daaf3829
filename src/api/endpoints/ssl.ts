// Certificates. The spec gives shapes for five operations; the others follow the field
// notes (the provider's SDK and plugins).
import { bool, formats, int, oneOf, required, str, type ParamSpec, type Rule } from '../params.js';
import { contactParams, contactRules, type ContactParams } from './contact-fields.js';
import { op, paging, type QueryInfo } from './types.js';

export const SSL_CONTACT_ROLES = ['adminContact', 'techContact', 'orgContact'] as const;
const INFO_TYPES = ['status', 'ssldata', 'validationStatus', 'pfx', 'der', 'p7b', 'zip', 'pem'] as const;
const MAX_ALT_NAMES = 100;

export interface CsrData {
  csrData: string;
  csrKey?: string;
  commonName: string;
  organizationName: string;
  organizationalUnitName: string;
  countryName: string;
  stateOrProvinceName: string;
  localityName: string;
  emailAddress: string;
}
export interface SslProduct {
  productID: number;
  productName: string;
  brandName: string;
  validationType: string;
  isMultiDomain: boolean;
  isWildcard: boolean;
  isTrial: boolean;
  numDomains: number;
  keyLength: number;
  encryption: number;
  create: { create: number; years: number; isPromo?: boolean };
  renew: { create: number; years: number; isPromo?: boolean };
  trialPeriod?: string;
  sanMaxDomains?: number;
  sanPrice?: number;
}
export interface Certificate {
  certificateID: number;
  commonName: string;
  status: string;
  renewable: boolean;
  productID: number;
  sanMaxDomains?: number;
  tsCreate: string;
  tsExpir: string;
  alternativeNames: string[];
}
export interface CertificateInfo extends Partial<Certificate> {
  sslCert?: string;
  sslKey?: string;
  numDomains?: number;
  content?: { type: string; name: string; base64encoded: boolean; data: string };
  validationData?: {
    brandValidationStatus: string;
    organizationValidationStatus: string;
    externalValidation: boolean;
    message: string;
    dcv: Record<
      string,
      {
        domainName: string;
        method: 'mail' | 'dns' | 'http' | 'https';
        validated: boolean;
        checkvalue: string | { link: string; file: string; contents: string };
      }
    >;
  };
}

const VALIDATION = {
  format: { pattern: /^(http|https|dns|[^@\s]+@[^@\s]+\.[^@\s]+)$/, describe: 'http, https, dns or an e-mail address' },
};
const validationMethod = (describe: string) => str(describe, VALIDATION);

/** alt_name_N / alt_validation_N for multi-domain certificates, N from 1. */
type AltNameParams = Record<`alt_name_${number}` | `alt_validation_${number}`, ParamSpec<string>>;
function altNameParams(): AltNameParams {
  const params: AltNameParams = {};
  for (let n = 1; n <= MAX_ALT_NAMES; n++) {
    params[`alt_name_${n}`] = str(`alternative name ${n}`, formats.domain);
    params[`alt_validation_${n}`] = validationMethod(`validation method of alternative name ${n}`);
  }
  return params;
}
const altNameRule: Rule = {
  describe: 'alt_name_N go with alt_validation_N, numbered from 1 without gaps',
  check: (p) => {
    const numbers = Object.keys(p)
      .map((k) => /^alt_(?:name|validation)_(\d+)$/.exec(k)?.[1])
      .filter(Boolean)
      .map(Number);
    const highest = Math.max(0, ...numbers);
    for (let n = 1; n <= highest; n++) {
      if (!p[`alt_name_${n}`] || !p[`alt_validation_${n}`])
        return `alternative names must be numbered from 1 with both alt_name_${n} and alt_validation_${n}`;
    }
    return undefined;
  },
};
type SslContactParams = ContactParams<(typeof SSL_CONTACT_ROLES)[number], false>;
const contacts = (): SslContactParams =>
  Object.assign({}, ...SSL_CONTACT_ROLES.map((role) => contactParams(role, false))) as SslContactParams;
const relaxed = <P extends Record<string, ParamSpec>>(params: P): P =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k, { ...v, required: undefined }])) as P;
const contactsRules = () => SSL_CONTACT_ROLES.flatMap((role) => contactRules(role, role === 'adminContact', false));
// Object.assign, not a spread: a spread drops the alt_name_${number} pattern from the type.
const orderParams = () =>
  Object.assign(
    {
      productID: required(int('SSL product')),
      csrData: required(str('CSR, with its BEGIN and END lines')),
      keyData: str('private key of the CSR'),
      period: int('years', { min: 1, max: 5 }),
      validationMethod: required(validationMethod('http, https, dns or an e-mail address')),
      // Contact fields are required only for the admin contact: the rules below say so.
      ...relaxed(contacts()),
    },
    altNameParams(),
  );

/** create and renew: the same order (CSR, validation, contacts, alternative names), renew naming the certificate. */
const order = <const P extends Record<string, ParamSpec>>(action: string, describe: string, extra: P) =>
  op<{ ssl: { certificateID: number } }>()({
    action,
    describe,
    params: { ...extra, ...orderParams() },
    rules: [...contactsRules(), altNameRule],
    contactRoles: SSL_CONTACT_ROLES,
    spends: true,
  });

export const ssl = {
  csrDecode: op<CsrData>()({
    action: 'csrdecode',
    describe: 'Decode a CSR',
    params: { csrData: required(str('CSR, with its BEGIN and END lines')) },
    idempotent: true,
  }),
  csrCreate: op<CsrData>()({
    action: 'csrcreate',
    describe: 'Create a key and CSR',
    params: {
      commonName: required(str()),
      organizationName: required(str()),
      organizationalUnitName: required(str()),
      countryName: required(str('2 letters', formats.country)),
      stateOrProvinceName: required(str()),
      localityName: required(str()),
      emailAddress: required(str('', formats.email)),
    },
  }),
  productList: op<{ queryInfo: QueryInfo; products: SslProduct[] }>()({
    action: 'productlist',
    describe: 'SSL products',
    params: { ...paging, wildcard: bool(), multidomain: bool(), trial: bool(), validationType: str('e.g. dv, ov, ev') },
    listKey: 'products',
    idempotent: true,
  }),
  productGetInfo: op<SslProduct>()({
    action: 'productgetinfo',
    describe: 'One SSL product',
    params: { productID: required(int()) },
    idempotent: true,
  }),
  list: op<{ queryInfo: QueryInfo; ssl: Certificate[] }>()({
    action: 'list',
    describe: 'Purchased certificates',
    params: { ...paging, productID: int(), status: str(), renewable: bool(), commonName: str() },
    listKey: 'ssl',
    idempotent: true,
  }),
  getInfo: op<CertificateInfo>()({
    action: 'getinfo',
    describe: "A certificate's status, data, validation or files",
    params: {
      certificateID: required(int()),
      infoType: oneOf(INFO_TYPES, 'default status'),
      pfxpass: str('password for infoType pfx'),
    },
    idempotent: true,
  }),
  create: order('create', 'Order a certificate from a CSR (spends balance)', {}),
  renew: order('renew', 'Renew a certificate (spends balance)', { certificateID: required(int()) }),
  reissue: op<{ ssl: { certificateID: number } }>()({
    action: 'reissue',
    describe: 'Reissue a valid certificate with a new CSR',
    params: Object.assign(
      {
        certificateID: required(int()),
        csrData: required(str()),
        keyData: str(),
        validationMethod: required(validationMethod('http, https, dns or an e-mail address')),
      },
      altNameParams(),
    ),
    rules: [altNameRule],
  }),
  multiDomainAddSan: op<{ ssl: { certificateID: number } }>()({
    action: 'multidomainaddsan',
    describe: 'Add alternative names to a multi-domain certificate (spends balance)',
    params: { certificateID: required(int()), extraSAN: required(int('how many names to add', { min: 1 })) },
    spends: true,
  }),
  getValidationEmails: op<{ valMethods: string[] }>()({
    action: 'getvalidationemails',
    describe: 'Validation e-mails (and other methods) for a name',
    params: { commonName: required(str()), includeAlternativeMethods: bool() },
    idempotent: true,
  }),
  changeValidationMethod: op<Record<string, unknown>>()({
    action: 'changevalidationmethod',
    describe: 'Change the validation method of a name (status process or reissue)',
    params: {
      certificateID: required(int()),
      commonName: required(str()),
      validationMethod: required(validationMethod('http, https, dns or an e-mail address')),
    },
    idempotent: true,
  }),
  resendValidationMail: op<Record<string, unknown>>()({
    action: 'resendvalidationmail',
    describe: 'Resend the validation mail of a name (status process)',
    params: { certificateID: required(int()), commonName: required(str()) },
  }),
};
