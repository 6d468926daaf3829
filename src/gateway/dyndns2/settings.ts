// The door's flags, read as `ddedge gateway` reads its others (flag, else the variable,
// comma-separated lists): --dyndns2-listen (repeatable), --dyndns2-cert with --dyndns2-key,
// --prefix-host NAME=<IPv6 interface identifier> (the agent's --host form). Every problem is a
// configuration error (exit 2) before anything listens.
import { readFileSync } from 'node:fs';
import { parseListenAddress, type ListenAddress } from '../../lib/listen-address.js';
import { parseHostItem } from '../../config/lan-settings.js';
import { canonicalIdentifier, DEFAULT_PREFIX_LENGTH, identifierProblem } from '../../lib/interface-id.js';
import { ConfigError } from '../../lib/errors.js';
import { canonicalName } from '../../lib/names.js';

export interface Dyndns2Settings {
  listen: ListenAddress[];
  tls?: { cert: string; key: string };
  /** Canonical interface identifier by host name. */
  prefixHosts: Map<string, string>;
}

/** `list(flag, variable)` gives a repeatable setting's items; `one(flag, variable)` a single one. Undefined when the door is off. */
export function readDyndns2Settings(list: (flag: string, variable: string) => string[], one: (flag: string, variable: string) => string | undefined): Dyndns2Settings | undefined {
  const problems: string[] = [];
  const listen: ListenAddress[] = [];
  for (const text of list('dyndns2-listen', 'DDEDGE_GATEWAY_DYNDNS2_LISTEN')) {
    const parsed = parseListenAddress(text);
    if (typeof parsed === 'string') problems.push(`--dyndns2-listen: ${parsed}`);
    else listen.push(parsed);
  }
  const certFile = one('dyndns2-cert', 'DDEDGE_GATEWAY_DYNDNS2_CERT');
  const keyFile = one('dyndns2-key', 'DDEDGE_GATEWAY_DYNDNS2_KEY');
  if (Boolean(certFile) !== Boolean(keyFile)) problems.push('--dyndns2-cert and --dyndns2-key go together: give both (TLS) or neither (plain HTTP)');
  const prefixHosts = new Map<string, string>();
  for (const item of list('prefix-host', 'DDEDGE_GATEWAY_PREFIX_HOSTS')) {
    const { host, identifier } = parseHostItem(item);
    const name = canonicalName(host);
    if (!identifier || !name?.includes('.')) {
      problems.push(`--prefix-host: "${item}" is not NAME=<IPv6 interface identifier> (e.g. nas.example.com=::1e2:3ff:fe4a:5b6c)`);
      continue;
    }
    const problem = identifierProblem(identifier, DEFAULT_PREFIX_LENGTH);
    if (problem) problems.push(`--prefix-host ${name}: ${problem}`);
    else prefixHosts.set(name, canonicalIdentifier(identifier));
  }
  if (!listen.length) {
    if (certFile || keyFile || prefixHosts.size) problems.push('--dyndns2-cert, --dyndns2-key and --prefix-host are for the dyndns2 door: give --dyndns2-listen ADDR:PORT too');
    if (problems.length) throw new ConfigError(problems.join('; '));
    return undefined;
  }
  let tls: Dyndns2Settings['tls'];
  if (certFile && keyFile) {
    const read = (flag: string, path: string) => {
      try {
        return readFileSync(path, 'utf8');
      } catch (error) {
        problems.push(`${flag}: cannot read "${path}": ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
        return '';
      }
    };
    tls = { cert: read('--dyndns2-cert', certFile), key: read('--dyndns2-key', keyFile) };
    if (tls.cert && !tls.cert.includes('-----BEGIN CERTIFICATE-----')) problems.push(`--dyndns2-cert: "${certFile}" holds no PEM certificate`);
    if (tls.key && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(tls.key)) problems.push(`--dyndns2-key: "${keyFile}" holds no PEM private key`);
  }
  if (problems.length) throw new ConfigError(problems.join('; '));
  return { listen, tls, prefixHosts };
}
