// The keys file decides which keys may change the zones: a gateway run as root refuses one that a
// user owns, as it refuses an implicit ./.env of another user. Read as root, a user's own 0600
// file let that user grant himself any name. A link is judged by the file it ends at (keys-file-opened-once.test.ts).
import { chownSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keygenText } from '../../../../src/gateway/keys/keygen.js';
import { loadKeysFile } from '../../../../src/gateway/keys/keys-file.js';
import { tempDir } from '../../../helpers/cli.js';

const me = process.geteuid?.() ?? 0;
/** A user who is not root owns the file: this one, or (when the tests run as root) one it is given to. */
const owner = me === 0 ? 4242 : me;

function keysFile(): string {
  const file = join(tempDir(), 'gateway.keys');
  writeFileSync(file, `${keygenText('admin', 'hmac-sha256')}grant "admin" zonesub;\n`, { mode: 0o600 });
  if (me === 0) chownSync(file, owner, 0);
  return file;
}

describe('the owner of the keys file', () => {
  it('a gateway run as the user who owns it: read', () => {
    expect(loadKeysFile(keysFile(), owner).keys.has('admin')).toBe(true);
  });

  it("a gateway run as root, the file a user's: refused, naming the owner", () => {
    expect(() => loadKeysFile(keysFile(), 0)).toThrow(
      new RegExp(`--keys: ".*" is owned by uid ${owner}, and the gateway runs as root`),
    );
  });
});
