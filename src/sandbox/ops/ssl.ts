// Certificates: created in `process`, renewed to `renew`, reissued only while `valid`;
// validation changes only in process or reissue. CSRs are real (see csr.ts).
import { createCsr, decodeCsr } from '../csr.js';
import { today, yearsFrom, type SandboxCertificate } from '../model.js';
import { charge, fail, matches, nextId, page, truthy, type OperationRequest, type Operations } from './common.js';

function certificateOf({ model, fields }: OperationRequest): SandboxCertificate {
  return (
    model.certificates.find((c) => c.certificateID === Number(fields.certificateID)) ??
    fail(5001, 'SSL certificate not found', `certificate ${fields.certificateID} not found`)
  );
}
function productOf({ model }: OperationRequest, id: string | number | undefined) {
  return (
    model.sslProducts.find((p) => p.productID === Number(id)) ?? fail(5000, 'SSL error', `product ${id} not found`)
  );
}
function subjectOf(csrData: string) {
  try {
    return decodeCsr(csrData);
  } catch (error) {
    return fail(5000, 'SSL error', `csrData is not a valid CSR: ${(error as Error).message}`);
  }
}
const altNames = (fields: Record<string, string>) =>
  Object.keys(fields)
    .filter((k) => /^alt_name_\d+$/.test(k))
    .sort()
    .map((k) => fields[k]!);
const shown = (c: SandboxCertificate) => ({
  certificateID: c.certificateID,
  commonName: c.commonName,
  status: c.status,
  renewable: c.status === 'valid',
  productID: c.productID,
  ...(c.sanMaxDomains ? { sanMaxDomains: c.sanMaxDomains } : {}),
  tsCreate: c.tsCreate,
  tsExpir: c.tsExpir,
  alternativeNames: c.alternativeNames,
});

function order(request: OperationRequest, existing?: SandboxCertificate) {
  const { model, fields } = request;
  const product = productOf(request, fields.productID);
  const subject = subjectOf(fields.csrData!);
  const names = altNames(fields);
  if (names.length && !product.isMultiDomain)
    fail(5000, 'SSL error', `${product.productName} takes no alternative names`);
  const years = Number(fields.period ?? 1);
  charge(
    model,
    (existing ? product.renew.create : product.create.create) * years,
    `${product.productName} for ${years} years`,
  );
  const certificate: SandboxCertificate = existing ?? {
    certificateID: nextId(model),
    productID: product.productID,
    commonName: subject.commonName,
    status: 'process',
    tsCreate: today(),
    tsExpir: '',
    alternativeNames: names,
    csrData: fields.csrData!,
    validationMethod: fields.validationMethod!,
    ...(product.sanMaxDomains ? { sanMaxDomains: product.sanMaxDomains } : {}),
  };
  if (existing) {
    existing.status = 'renew';
    existing.tsExpir = yearsFrom(existing.tsExpir || today(), years);
  } else model.certificates.push(certificate);
  return { ssl: { certificateID: certificate.certificateID } };
}

export const sslOps: Operations = {
  csrdecode: { handle: ({ fields }) => ({ csrData: fields.csrData, ...subjectOf(fields.csrData!) }) },
  csrcreate: {
    handle: ({ fields }) => {
      const subject = {
        commonName: fields.commonName!,
        organizationName: fields.organizationName!,
        organizationalUnitName: fields.organizationalUnitName!,
        countryName: fields.countryName!,
        stateOrProvinceName: fields.stateOrProvinceName!,
        localityName: fields.localityName!,
        emailAddress: fields.emailAddress!,
      };
      return { ...createCsr(subject), ...subject };
    },
  },
  productlist: {
    handle: ({ model, fields }) => {
      const found = model.sslProducts.filter(
        (p) =>
          (fields.wildcard === undefined || p.isWildcard === truthy(fields.wildcard)) &&
          (fields.multidomain === undefined || p.isMultiDomain === truthy(fields.multidomain)) &&
          (fields.trial === undefined || p.isTrial === truthy(fields.trial)) &&
          matches(p.validationType, fields.validationType),
      );
      const { slice, queryInfo } = page(found, fields);
      return { queryInfo, products: slice };
    },
  },
  productgetinfo: { handle: (r) => productOf(r, r.fields.productID) },
  list: {
    handle: ({ model, fields }) => {
      const found = model.certificates.filter(
        (c) =>
          matches(String(c.productID), fields.productID) &&
          matches(c.status, fields.status) &&
          matches(c.commonName, fields.commonName) &&
          (fields.renewable === undefined || (c.status === 'valid') === truthy(fields.renewable)),
      );
      const { slice, queryInfo } = page(found.map(shown), fields);
      return { queryInfo, ssl: slice };
    },
  },
  getinfo: {
    handle: (r) => {
      const c = certificateOf(r);
      const infoType = r.fields.infoType ?? 'status';
      if (infoType === 'status') return shown(c);
      if (infoType === 'ssldata') {
        if (c.status !== 'valid')
          fail(5000, 'SSL error', `certificate ${c.certificateID} is ${c.status}: no certificate issued yet`);
        return {
          ...shown(c),
          sslCert: `-----BEGIN CERTIFICATE-----\nSANDBOX-${c.certificateID}\n-----END CERTIFICATE-----\n`,
          sslKey: '',
          numDomains: 1 + c.alternativeNames.length,
        };
      }
      if (infoType === 'validationStatus') {
        const dcv = Object.fromEntries(
          [c.commonName, ...c.alternativeNames].map((name) => [
            name,
            {
              domainName: name,
              method: c.validationMethod.includes('@') ? 'mail' : c.validationMethod,
              validated: c.status === 'valid',
              checkvalue:
                c.validationMethod === 'dns'
                  ? `_sandbox.${name} TXT "sandbox-${c.certificateID}"`
                  : c.validationMethod.includes('@')
                    ? c.validationMethod
                    : {
                        link: `http://${name}/.well-known/pki-validation/sandbox.txt`,
                        file: 'sandbox.txt',
                        contents: `sandbox-${c.certificateID}`,
                      },
            },
          ]),
        );
        return {
          ...shown(c),
          validationData: {
            brandValidationStatus: c.status === 'valid' ? 'validated' : 'pending',
            organizationValidationStatus: 'notapplicable',
            externalValidation: false,
            message: '',
            dcv,
          },
        };
      }
      if (c.status !== 'valid')
        fail(5000, 'SSL error', `certificate ${c.certificateID} is ${c.status}: nothing to download yet`);
      if (infoType === 'pfx' && !r.fields.pfxpass) fail(101, 'Syntax error: parameter fault', 'pfx needs pfxpass');
      return {
        ...shown(c),
        content: {
          type: infoType,
          name: `${c.commonName}.${infoType}`,
          base64encoded: true,
          data: Buffer.from(`sandbox ${infoType} for ${c.commonName}`).toString('base64'),
        },
      };
    },
  },
  create: { writes: true, handle: (r) => order(r) },
  renew: { writes: true, handle: (r) => order(r, certificateOf(r)) },
  reissue: {
    writes: true,
    handle: (r) => {
      const c = certificateOf(r);
      if (c.status !== 'valid')
        fail(5000, 'SSL error', `only a valid certificate can be reissued; ${c.certificateID} is ${c.status}`);
      const subject = subjectOf(r.fields.csrData!);
      Object.assign(c, {
        status: 'reissue',
        commonName: subject.commonName,
        csrData: r.fields.csrData,
        validationMethod: r.fields.validationMethod,
        alternativeNames: altNames(r.fields),
      });
      return { ssl: { certificateID: c.certificateID } };
    },
  },
  multidomainaddsan: {
    writes: true,
    handle: (r) => {
      const c = certificateOf(r);
      const product = productOf(r, c.productID);
      if (!product.isMultiDomain) fail(5000, 'SSL error', `${product.productName} is not multi-domain`);
      const extra = Number(r.fields.extraSAN);
      if ((c.sanMaxDomains ?? 0) + extra > (product.sanMaxDomains ?? 0) * 4)
        fail(5000, 'SSL error', 'too many alternative names');
      charge(r.model, (product.sanPrice ?? 0) * extra, `${extra} alternative names`);
      c.sanMaxDomains = (c.sanMaxDomains ?? 0) + extra;
      return { ssl: { certificateID: c.certificateID } };
    },
  },
  getvalidationemails: {
    handle: ({ fields }) => {
      const domain = fields.commonName!.replace(/^\*\./, '').split('.').slice(-2).join('.');
      const mails = ['admin', 'administrator', 'hostmaster', 'postmaster', 'webmaster'].map((u) => `${u}@${domain}`);
      return { valMethods: truthy(fields.includeAlternativeMethods) ? [...mails, 'dns', 'http', 'https'] : mails };
    },
  },
  changevalidationmethod: {
    writes: true,
    handle: (r) => {
      const c = certificateOf(r);
      if (c.status !== 'process' && c.status !== 'reissue')
        fail(
          5000,
          'SSL error',
          `the validation can change only in process or reissue; ${c.certificateID} is ${c.status}`,
        );
      c.validationMethod = r.fields.validationMethod!;
      return { ssl: { certificateID: c.certificateID }, messages: ['Validation method changed'] };
    },
  },
  resendvalidationmail: {
    handle: (r) => {
      const c = certificateOf(r);
      if (c.status !== 'process')
        fail(5000, 'SSL error', `certificate ${c.certificateID} is ${c.status}, not waiting for validation`);
      return { ssl: { certificateID: c.certificateID }, messages: [`Validation mail for ${r.fields.commonName} sent`] };
    },
  },
};
