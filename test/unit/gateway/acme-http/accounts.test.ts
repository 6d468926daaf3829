// The acme-dns accounts JSON of a key: goacmedns's storage, the subdomain the domain itself.
import { describe, expect, it } from 'vitest';
import { acmeDnsAccounts } from '../../../../src/gateway/acme-http/accounts.js';
import { keygenText } from '../../../../src/gateway/keys/keygen.js';
import { parseKeysFile } from '../../../../src/gateway/keys/keys-file.js';

const keys = parseKeysFile(
  `${keygenText('acme')}${keygenText('all')}grant "acme" name _acme-challenge.example.com TXT;\n` +
    'grant "all" zonesub TXT;\ngrant "acme" name www.example.com A;\n',
  'keys.conf',
);
const secret = (name: string) => keys.keys.get(name)!.secret.toString('base64');

describe('acmeDnsAccounts', () => {
  it("one account per domain, a wildcard its name's, with the key as user and its secret as password", () => {
    expect(acmeDnsAccounts(keys, 'acme', ['Example.com.', '*.example.com'])).toEqual({
      'example.com': {
        username: 'acme',
        password: secret('acme'),
        fulldomain: '_acme-challenge.example.com',
        subdomain: 'example.com',
        allowfrom: [],
      },
    });
    expect(Object.keys(acmeDnsAccounts(keys, 'all', ['a.example.com', 'b.example.net']))).toEqual([
      'a.example.com',
      'b.example.net',
    ]);
  });

  it('refuses an unknown key, no domain, a name that is none, or a domain without a TXT grant', () => {
    expect(acmeDnsAccounts(keys, 'nobody', ['example.com'])).toMatch(/no key "nobody"/);
    expect(acmeDnsAccounts(keys, 'acme', [])).toMatch(/at least one domain/);
    expect(acmeDnsAccounts(keys, 'acme', ['exa mple.com'])).toMatch(/is not a full host name/);
    expect(acmeDnsAccounts(keys, 'acme', ['www.example.com'])).toMatch(
      /no grant for _acme-challenge\.www\.example\.com TXT: add e\.g\. grant "acme" name _acme-challenge\.www\.example\.com TXT;/,
    );
  });
});
