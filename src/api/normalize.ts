// Answers sometimes carry numbers and booleans as strings (`renewPeriod: "4"`, and every
// value in the XML format). The typed result gets them as numbers and booleans.

const NUMERIC = new Set([
  'domainID',
  'period',
  'renewPeriod',
  'total',
  'page',
  'pageLength',
  'results',
  'balance',
  'threshold',
  'price',
  'productID',
  'certificateID',
  'numDomains',
  'keyLength',
  'encryption',
  'sanMaxDomains',
  'sanPrice',
  'keytag',
  'algorithm',
  'digesttype',
  'order',
  'quota',
  'usage',
  'quotaMax',
  'value',
  'max',
  'years',
  'create',
  'errorCode',
]);
const BOOLEAN = new Set([
  'available',
  'premium',
  'renewable',
  'modifyBlock',
  'transferBlock',
  'whoisPrivacy',
  'viewWhois',
  'authcodeCheck',
  'serviceAssociated',
  'defaultNS',
  'active',
  'daaccepted',
  'externalAccess',
  'enabled',
  'isMultiDomain',
  'isWildcard',
  'isTrial',
  'inPromo',
  'isPromo',
  'authcodereq',
  'transferavail',
  'zonepass',
  'validated',
  'base64encoded',
  'externalValidation',
  'updated',
  'success',
]);
/** Keys whose value is text even when it looks like a number (a DNS entry's value, ttl and priority). */
const TEXT_PARENTS = new Set(['dns']);

export function normalizeResult(value: unknown, key = '', parent = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => normalizeResult(v, key, key));
  if (value && typeof value === 'object') {
    // An entry of a zone listing (thousands a page) holds only text: it stays as it is.
    if (TEXT_PARENTS.has(key) && onlyScalars(value)) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalizeResult(v, k, key)]));
  }
  if (typeof value !== 'string' || TEXT_PARENTS.has(parent)) return value;
  if (NUMERIC.has(key) && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (BOOLEAN.has(key) && /^(true|false|1|0)$/.test(value)) return value === 'true' || value === '1';
  return value;
}

function onlyScalars(value: object): boolean {
  for (const k in value) {
    const v = (value as Record<string, unknown>)[k];
    if (v !== null && typeof v === 'object') return false;
  }
  return true;
}
