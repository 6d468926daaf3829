// The keys file is opened once, without following a link and without waiting for a writer, and
// what is checked (a regular file, its owner and mode) is the very file read. A swap at the path
// between a check and a read cannot be raced on purpose, so the property is tested instead: the
// open step is given a hook that swaps the path just before or just after the open.
import { execFileSync } from 'node:child_process';
import { openSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keygenText } from '../../../../src/gateway/keys/keygen.js';
import { loadKeysFile } from '../../../../src/gateway/keys/keys-file.js';
import { tempDir } from '../../../helpers/cli.js';

const me = process.geteuid?.() ?? 0;

function keysFile(dir: string, name: string, key: string): string {
  const file = join(dir, name);
  writeFileSync(file, `${keygenText(key, 'hmac-sha256')}grant "${key}" zonesub;\n`, { mode: 0o600 });
  return file;
}

describe('the keys file is read from the one descriptor its checks were made on', () => {
  it('a symbolic link at the path is refused, not followed (even to a good file)', () => {
    const dir = tempDir();
    const target = keysFile(dir, 'real.keys', 'admin');
    const link = join(dir, 'gateway.keys');
    symlinkSync(target, link);
    expect(() => loadKeysFile(link, me)).toThrow(
      /--keys: ".*gateway\.keys" is a symbolic link, not a regular file; give the keys file itself/,
    );
  });

  it('a file put in place of the path after the open is not read: the keys are those of the file opened', () => {
    const dir = tempDir();
    const path = keysFile(dir, 'gateway.keys', 'admin');
    const other = keysFile(dir, 'other.keys', 'intruder');
    const keys = loadKeysFile(path, me, (p, flags) => {
      const fd = openSync(p, flags);
      renameSync(other, path);
      return fd;
    });
    expect([...keys.keys.keys()]).toEqual(['admin']);
  });

  it('a FIFO swapped in just before the open is refused at once (opened without waiting for a writer)', () => {
    const dir = tempDir();
    const path = keysFile(dir, 'gateway.keys', 'admin');
    const started = performance.now();
    expect(() =>
      loadKeysFile(path, me, (p, flags) => {
        unlinkSync(p);
        execFileSync('mkfifo', ['-m', '600', p]);
        return openSync(p, flags);
      }),
    ).toThrow(/--keys: ".*gateway\.keys" is a FIFO, not a regular file/);
    // Reached at all: a blocking open of a FIFO without a writer never returns.
    expect(performance.now() - started).toBeLessThan(60_000);
  });

  it('a link swapped in just before the open is refused, not followed', () => {
    const dir = tempDir();
    const path = keysFile(dir, 'gateway.keys', 'admin');
    const other = keysFile(dir, 'other.keys', 'intruder');
    expect(() =>
      loadKeysFile(path, me, (p, flags) => {
        unlinkSync(p);
        symlinkSync(other, p);
        return openSync(p, flags);
      }),
    ).toThrow(/is a symbolic link, not a regular file/);
  });

  it('a missing file is named', () => {
    expect(() => loadKeysFile(join(tempDir(), 'none.keys'), me)).toThrow(/--keys: cannot read ".*none\.keys": ENOENT/);
  });
});
