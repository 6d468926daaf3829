// The default hosting service of a host is its registered domain. Without the whole Public
// Suffix List (a large file to ship for a default that --service overrides), the common
// two-label suffixes of the provider's markets are known here.
const TWO_LABEL_SUFFIXES = new Set([
  'com.es',
  'nom.es',
  'org.es',
  'gob.es',
  'edu.es',
  'co.uk',
  'org.uk',
  'me.uk',
  'ltd.uk',
  'plc.uk',
  'net.uk',
  'com.pt',
  'org.pt',
  'com.ar',
  'com.mx',
  'org.mx',
  'com.br',
  'com.co',
  'com.pe',
  'com.ve',
  'com.uy',
  'com.ec',
  'com.do',
  'co.nz',
  'com.au',
  'net.au',
  'org.au',
  'co.za',
  'com.tr',
  'co.jp',
  'co.in',
  'co.il',
]);

export function registeredDomain(host: string): string {
  const labels = host.split('.');
  const lastTwo = labels.slice(-2).join('.');
  return labels.slice(TWO_LABEL_SUFFIXES.has(lastTwo) && labels.length > 2 ? -3 : -2).join('.');
}
