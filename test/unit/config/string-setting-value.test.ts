// A string setting given as a bare flag is refused, never read as "true": `--api-password`
// with its value forgotten must not send the word "true" as the password.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';

describe('a string setting needs a value', () => {
  it.each(['api-password', 'api-user', 'dyndns-key', 'state-dir'])(
    '--%s given bare (true) is a configuration error',
    (flag) => {
      expect(() => loadConfig({ flags: { [flag]: true }, env: { HOME: '/tmp' }, purpose: 'state' })).toThrow(
        new RegExp(`--${flag} needs a value`),
      );
    },
  );
  it('a boolean setting given bare is true', () => {
    expect(loadConfig({ flags: { ipv6: true }, env: { HOME: '/tmp' }, purpose: 'state' }).ipv6).toBe(true);
  });
});
