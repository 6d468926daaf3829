// The file:<path> source: read afresh, a regular file only, capped.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { FILE_SOURCE_MAX_BYTES, FileSourceError, noAddressIn, readAddressFile } from '../../../src/ip/file-source.js';
import { tempDir } from '../../helpers/cli.js';

describe('readAddressFile', () => {
  it('reads what the file holds now, each time it is asked', async () => {
    const path = join(tempDir('ddedge-file-source-'), 'wan');
    writeFileSync(path, '81.0.2.15\n');
    expect(await readAddressFile(path)).toBe('81.0.2.15\n');
    writeFileSync(path, '81.0.2.16\n');
    expect(await readAddressFile(path)).toBe('81.0.2.16\n');
  });

  it('reads a file of exactly the cap, and refuses one byte more', async () => {
    const dir = tempDir('ddedge-file-source-');
    writeFileSync(join(dir, 'full'), 'x'.repeat(FILE_SOURCE_MAX_BYTES));
    expect(await readAddressFile(join(dir, 'full'))).toHaveLength(FILE_SOURCE_MAX_BYTES);
    writeFileSync(join(dir, 'over'), 'x'.repeat(FILE_SOURCE_MAX_BYTES + 1));
    await expect(readAddressFile(join(dir, 'over'))).rejects.toThrow(`is over the ${FILE_SOURCE_MAX_BYTES}-byte limit`);
  });

  it('refuses a directory and a FIFO without waiting for a writer, and names a missing file', async () => {
    const dir = tempDir('ddedge-file-source-');
    mkdirSync(join(dir, 'folder'));
    await expect(readAddressFile(join(dir, 'folder'))).rejects.toThrow(/folder is a directory, not a regular file/);
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    await expect(readAddressFile(join(dir, 'fifo'))).rejects.toThrow(/fifo is .*, not a regular file/);
    const missing = readAddressFile(join(dir, 'missing'));
    await expect(missing).rejects.toBeInstanceOf(FileSourceError);
    await expect(missing).rejects.toThrow(/cannot read .*missing: ENOENT/);
  });

  it('says which file held no address of the family', () => {
    expect(noAddressIn('/run/wan', 6).message).toBe('no IPv6 address in /run/wan');
  });
});
