// The keys file must be UTF-8: a byte that is not (a key name saved as Latin-1) is an error naming
// where, not U+FFFD put in its place, which would load the key under a name no client sends.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadKeysFile } from '../../../../src/gateway/keys/keys-file.js';
import { tempDir } from '../../../helpers/cli.js';

const me = process.geteuid?.() ?? 0;
const SECRET = 'Q0FOQVJZLXMzY3IzdC1DQU5BUlktczNjcjN0LVhYWFg=';

describe('a keys file that is not UTF-8', () => {
  it('is refused, naming the line and column of the first byte that is not, and loads nothing', () => {
    const file = join(tempDir(), 'gateway.keys');
    const text = Buffer.concat([
      Buffer.from(`# keys\nkey "caf`),
      Buffer.from([0xe9]),
      Buffer.from(`" { algorithm hmac-sha256; secret "${SECRET}"; };\n`),
    ]);
    writeFileSync(file, text, { mode: 0o600 });
    expect(() => loadKeysFile(file, me)).toThrow(`${file}:2:9: a byte that is not UTF-8 (save the keys file as UTF-8)`);
    try {
      loadKeysFile(file, me);
    } catch (error) {
      expect((error as Error).message).not.toContain(SECRET);
    }
  });

  it('a UTF-8 name is read as its bytes, as a DNS name holds them', () => {
    const file = join(tempDir(), 'gateway.keys');
    writeFileSync(file, `key "café" { algorithm hmac-sha256; secret "${SECRET}"; };\n`, { mode: 0o600 });
    expect([...loadKeysFile(file, me).keys.keys()]).toEqual(['caf\\195\\169']);
  });
});
