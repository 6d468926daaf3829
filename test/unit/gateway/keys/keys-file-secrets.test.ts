// A keys-file error never shows what may be a secret (an attack found parts of one shown): a
// canary secret pasted in each shape a mistake takes (nsupdate -y's ALG:NAME:SECRET, a quoted
// string out of place, a bare base64 token where a word is expected, a secret as a key name) is
// in no message, not even 8 characters of it, while each message still names file, line and
// column and what was expected.
import { describe, expect, it } from 'vitest';
import { parseKeysFile } from '../../../../src/gateway/keys/keys-file.js';
import { CANARY, GOOD, leaksCanary, SHAPES } from '../../../helpers/keys-secret-shapes.js';

const errorOf = (text: string): string => {
  try {
    parseKeysFile(text, 'keys.conf');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('no error');
};

describe('keys-file errors and secrets', () => {
  for (const shape of SHAPES) {
    it(`${shape.name}: names file, line, column and what was expected, and no part of the secret`, () => {
      const message = errorOf(`${GOOD}${shape.line}\n`);
      expect(message).toMatch(new RegExp(`^keys\\.conf:2:${shape.column}: `));
      expect(message).toMatch(shape.expected);
      expect(message.split('\n'), shape.line).toHaveLength(1);
      expect(leaksCanary(message, CANARY), message).toBe(false);
    });
  }

  it('still shows a word that cannot be a secret, cut short', () => {
    expect(errorOf(`${GOOD}grant "k" zonesub PTR;\n`)).toMatch(
      /^keys\.conf:2:19: grant "k": expected a type .*, found "PTR"$/,
    );
    expect(errorOf(`${GOOD}grant "k" name bad..name;\n`)).toMatch(
      /^keys\.conf:2:16: grant "k": expected a DNS name, found "bad\.\.name"$/,
    );
    // A character no name holds is refused in a grant as everywhere else, ASCII or not.
    expect(errorOf(`${GOOD}grant "k" name a%b.example.com A;\n`)).toMatch(
      /^keys\.conf:2:16: grant "k": expected a DNS name, found "a%b\.example\.com"$/,
    );
  });
});
