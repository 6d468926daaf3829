// The shapes a TSIG secret takes when a keys file is written wrong, each as the line after a
// good key, with what the error says was expected and the column it points at; shared by the
// unit test of the reader and the end-to-end tests of check-keys and SIGHUP.
import { randomBytes } from 'node:crypto';

export const CANARY = randomBytes(32).toString('base64');
export const GOOD = 'key "k" { algorithm hmac-sha256; secret "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTEyMzQ="; };\n';

/** Each shape: the line, what the error says was expected, the column it points at. */
export const SHAPES: { name: string; line: string; expected: RegExp; column: number }[] = [
  {
    name: 'nsupdate -y form',
    line: `hmac-sha256:r.example.com:${CANARY}`,
    expected: /expected key, grant, transfer or quota, found "hmac-sha256:…" \(the rest not shown/,
    column: 1,
  },
  {
    name: 'name:secret',
    line: `r.example.com:${CANARY}`,
    expected: /expected key, grant, transfer or quota, found "r\.example\.com:…"/,
    column: 1,
  },
  {
    name: 'bare secret as a statement',
    line: CANARY,
    expected: /expected key, grant, transfer or quota, found a token that may be a secret \(not shown\)/,
    column: 1,
  },
  {
    name: 'quoted secret as a statement',
    line: `  "${CANARY}";`,
    expected: /expected key, grant, transfer or quota, found a quoted string/,
    column: 3,
  },
  {
    name: 'quoted secret as the algorithm',
    line: `key "r" { algorithm "${CANARY}"; secret "${CANARY}"; };`,
    expected: /key "r": expected an algorithm \(hmac-md5.*\), found a quoted string \(not shown/,
    column: 21,
  },
  {
    name: 'bare secret as the algorithm',
    line: `key "r" { algorithm ${CANARY}; };`,
    expected: /key "r": expected an algorithm .*, found a token that may be a secret/,
    column: 21,
  },
  {
    name: 'quoted secret as a field',
    line: `key "r" { "${CANARY}"; };`,
    expected: /key "r": expected algorithm, secret or "}", found a quoted string/,
    column: 11,
  },
  {
    name: 'secret as a field with a colon',
    line: `key "r" { x:${CANARY}; };`,
    expected: /key "r": expected algorithm, secret or "}", found "x:…"/,
    column: 11,
  },
  {
    name: 'bare secret as a grant type',
    line: `grant "k" subdomain dhcp.example.com A ${CANARY};`,
    expected: /grant "k": expected a type the provider holds .* or ";", found a token that may be a secret/,
    column: 40,
  },
  {
    name: 'quoted secret as a grant type',
    line: `grant "k" zonesub "${CANARY}";`,
    expected: /grant "k": expected a type .*, found a quoted string/,
    column: 19,
  },
  {
    name: 'secret as the grant rule',
    line: `grant "k" ${CANARY};`,
    expected: /grant "k": expected zonesub, .*, found a token that may be a secret/,
    column: 11,
  },
  {
    name: 'secret as a wildcard name',
    line: `grant "k" wildcard "${CANARY}";`,
    expected: /grant "k": a wildcard rule names \*\.NAME, not a quoted string/,
    column: 20,
  },
  {
    name: 'secret as a key name granted',
    line: `grant "${CANARY}" zonesub;`,
    expected: /no key "…" \(a name not shown: it may be a secret\) is defined/,
    column: 7,
  },
  {
    name: 'secret as a key name with no ;',
    line: `transfer "${CANARY}"`,
    expected: /the file ends where ";" should be/,
    column: 10,
  },
];

/** Whether `message` holds any 8 characters of the canary, in any case (key names are lower-cased). */
export function leaksCanary(message: string, canary: string): boolean {
  const lower = message.toLowerCase();
  for (let i = 0; i + 8 <= canary.length; i++) if (lower.includes(canary.slice(i, i + 8).toLowerCase())) return true;
  return false;
}
