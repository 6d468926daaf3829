// The keys file is opened once, without waiting for a writer, and what is checked (a regular
// file, its owner and mode) is the very file read: the file a chain of links ends at, as a
// Kubernetes secret volume mounts it, is checked and read through the one descriptor. A swap at the path
// between a check and a read cannot be raced on purpose, so the property is tested instead: the
// open step is given a hook that swaps the path just before or just after the open.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, openSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
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
  it('a chain of links, as a Kubernetes secret volume mounts a file, is followed to the file it ends at', () => {
    // keys.conf -> ..data/keys.conf, ..data -> ..2026_12_02_05_00_00.1/ (swapped at each change of the secret)
    const dir = tempDir();
    const version = join(dir, '..2026_12_02_05_00_00.1');
    mkdirSync(version);
    keysFile(version, 'keys.conf', 'admin');
    symlinkSync('..2026_12_02_05_00_00.1', join(dir, '..data'));
    symlinkSync('..data/keys.conf', join(dir, 'keys.conf'));
    expect([...loadKeysFile(join(dir, 'keys.conf'), me).keys.keys()]).toEqual(['admin']);
  });

  it('a link is judged by the file it ends at: one others may read is refused, as the file itself is', () => {
    const dir = tempDir();
    const target = keysFile(dir, 'real.keys', 'admin');
    chmodSync(target, 0o644);
    const link = join(dir, 'gateway.keys');
    symlinkSync(target, link);
    expect(() => loadKeysFile(link, me)).toThrow(/--keys: ".*gateway\.keys" can be read by other users \(mode 0644\)/);
  });

  it('a link to a FIFO is refused at once, without waiting for a writer', () => {
    const dir = tempDir();
    execFileSync('mkfifo', ['-m', '600', join(dir, 'fifo')]);
    symlinkSync(join(dir, 'fifo'), join(dir, 'gateway.keys'));
    expect(() => loadKeysFile(join(dir, 'gateway.keys'), me)).toThrow(/is a FIFO, not a regular file/);
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

  it('a link swapped in just before the open is checked as the file it ends at, which is the file read', () => {
    const dir = tempDir();
    const path = keysFile(dir, 'gateway.keys', 'admin');
    const other = keysFile(dir, 'other.keys', 'intruder');
    chmodSync(other, 0o666);
    expect(() =>
      loadKeysFile(path, me, (p, flags) => {
        unlinkSync(p);
        symlinkSync(other, p);
        return openSync(p, flags);
      }),
    ).toThrow(/can be read by other users \(mode 0666\)/);
  });

  it('a missing file is named', () => {
    expect(() => loadKeysFile(join(tempDir(), 'none.keys'), me)).toThrow(/--keys: cannot read ".*none\.keys": ENOENT/);
  });
});
