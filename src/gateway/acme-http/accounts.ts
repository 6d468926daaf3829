// acme-dns accounts as its clients store them (goacmedns's storage: lego's ACME_DNS_STORAGE_PATH,
// cert-manager's acmeDNS secret), one per domain, made from a key of the keys file: the user name
// is the key's name, the password its secret as the file writes it, the subdomain the domain
// itself (the door maps it back to `_acme-challenge.DOMAIN`, acme-dns.ts) and the full domain that
// name, so the TXT goes to the domain's own challenge name with no CNAME. A domain the key may not
// write the TXT of is refused: an account that can only be answered 403 is no account.
import { grantCovers } from '../keys/grants.js';
import type { GatewayKeys } from '../keys/keys-file.js';
import { challengeNameOf } from './acme-dns.js';

export interface AcmeDnsAccount {
  username: string;
  password: string;
  fulldomain: string;
  subdomain: string;
  allowfrom: string[];
}

/** The accounts JSON for `domains` (a wildcard is its name's: `*.example.com` is example.com's), or why not. */
export function acmeDnsAccounts(
  keys: GatewayKeys,
  key: string,
  domains: string[],
): Record<string, AcmeDnsAccount> | string {
  const found = keys.keys.get(key);
  if (!found) return `no key "${key}" in the keys file (ddedge gateway check-keys FILE lists them)`;
  if (!domains.length) return 'name at least one domain';
  const accounts: Record<string, AcmeDnsAccount> = {};
  for (const domain of domains) {
    const name = challengeNameOf(domain);
    if (!name) return `"${domain}" is not a full host name`;
    const bare = name.slice('_acme-challenge.'.length);
    // The zone is not known here; a grant for the whole zone (zonesub) covers any name of it.
    if (!keys.grants.some((g) => g.key === key && grantCovers(g, name, name, 'TXT')))
      return (
        `the key ${key} has no grant for ${name} TXT: add e.g. ` + `grant "${key}" name ${name} TXT; to the keys file`
      );
    accounts[bare] = {
      username: key,
      password: found.secret.toString('base64'),
      fulldomain: name,
      subdomain: bare,
      allowfrom: [],
    };
  }
  return accounts;
}
