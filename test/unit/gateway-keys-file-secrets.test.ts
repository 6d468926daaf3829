// A keys-file error never shows what may be a secret (an attack found parts of one shown): a
// canary secret pasted in each shape a mistake takes (nsupdate -y's ALG:NAME:SECRET, a quoted
// string out of place, a bare base64 token where a word is expected, a secret as a key name) is
// in no message, not even 8 characters of it, while each message still names file, line and
// column and what was expected.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseKeysFile } from '../../src/gateway/keys-file.js';

const CANARY = randomBytes(32).toString('base64');
const GOOD = 'key "k" { algorithm hmac-sha256; secret "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTEyMzQ="; };\n';

/** The shapes, each as the line after a good key, with what the error says was expected and the column it points at. */
export const SHAPES: { name: string; line: string; expected: RegExp; column: number }[] = [
  { name: 'nsupdate -y form', line: `hmac-sha256:r.example.com:${CANARY}`, expected: /expected key, grant or transfer, found "hmac-sha256:…" \(the rest not shown/, column: 1 },
  { name: 'name:secret', line: `r.example.com:${CANARY}`, expected: /expected key, grant or transfer, found "r\.example\.com:…"/, column: 1 },
  { name: 'bare secret as a statement', line: CANARY, expected: /expected key, grant or transfer, found a token that may be a secret \(not shown\)/, column: 1 },
  { name: 'quoted secret as a statement', line: `  "${CANARY}";`, expected: /expected key, grant or transfer, found a quoted string/, column: 3 },
  { name: 'quoted secret as the algorithm', line: `key "r" { algorithm "${CANARY}"; secret "${CANARY}"; };`, expected: /key "r": expected an algorithm \(hmac-md5.*\), found a quoted string \(not shown/, column: 21 },
  { name: 'bare secret as the algorithm', line: `key "r" { algorithm ${CANARY}; };`, expected: /key "r": expected an algorithm .*, found a token that may be a secret/, column: 21 },
  { name: 'quoted secret as a field', line: `key "r" { "${CANARY}"; };`, expected: /key "r": expected algorithm, secret or "}", found a quoted string/, column: 11 },
  { name: 'secret as a field with a colon', line: `key "r" { x:${CANARY}; };`, expected: /key "r": expected algorithm, secret or "}", found "x:…"/, column: 11 },
  { name: 'bare secret as a grant type', line: `grant "k" subdomain dhcp.example.com A ${CANARY};`, expected: /grant "k": expected a type the provider holds .* or ";", found a token that may be a secret/, column: 40 },
  { name: 'quoted secret as a grant type', line: `grant "k" zonesub "${CANARY}";`, expected: /grant "k": expected a type .*, found a quoted string/, column: 19 },
  { name: 'secret as the grant rule', line: `grant "k" ${CANARY};`, expected: /grant "k": expected zonesub, .*, found a token that may be a secret/, column: 11 },
  { name: 'secret as a wildcard name', line: `grant "k" wildcard "${CANARY}";`, expected: /grant "k": a wildcard rule names \*\.NAME, not a quoted string/, column: 20 },
  { name: 'secret as a key name granted', line: `grant "${CANARY}" zonesub;`, expected: /no key a token that may be a secret \(not shown\) is defined/, column: 7 },
  { name: 'secret as a key name with no ;', line: `transfer "${CANARY}"`, expected: /the file ends where ";" should be/, column: 10 },
];

const errorOf = (text: string): string => {
  try {
    parseKeysFile(text, 'keys.conf');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('no error');
};

/** Whether `message` holds any 8 characters of the canary, in any case (key names are lower-cased). */
export function leaksCanary(message: string, canary: string): boolean {
  const lower = message.toLowerCase();
  for (let i = 0; i + 8 <= canary.length; i++) if (lower.includes(canary.slice(i, i + 8).toLowerCase())) return true;
  return false;
}

describe('keys-file errors and secrets', () => {
  for (const shape of SHAPES) {
    it(`${shape.name}: names file, line, column and what was expected, and no part of the secret`, () => {
      const message = errorOf(`${GOOD}${shape.line}\n`);
      expect(message).toMatch(new RegExp(`^keys\\.conf:2:${shape.column}: `));
      expect(message).toMatch(shape.expected);
      expect(leaksCanary(message, CANARY), message).toBe(false);
    });
  }

  it('still shows a word that cannot be a secret, cut short', () => {
    expect(errorOf(`${GOOD}grant "k" zonesub PTR;\n`)).toMatch(/^keys\.conf:2:19: grant "k": expected a type .*, found "PTR"$/);
    expect(errorOf(`${GOOD}grant "k" name bad..name;\n`)).toMatch(/^keys\.conf:2:16: grant "k": expected a DNS name, found "bad\.\.name"$/);
  });
});
