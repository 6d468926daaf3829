// What a rename into place may replace: nothing, or a regular file; a link only when judged by
// what it leads to and that is a regular file.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { notReplaceable } from '../../../src/lib/replaceable-file.js';
import { tempDir } from '../../helpers/cli.js';

describe('notReplaceable', () => {
  it('names what is no regular file, a link as a link unless links are followed', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), 'x');
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    mkdirSync(join(dir, 'folder'));
    symlinkSync(join(dir, 'file'), join(dir, 'to-file'));
    symlinkSync(join(dir, 'fifo'), join(dir, 'to-fifo'));
    expect(notReplaceable(join(dir, 'absent'))).toBeUndefined();
    expect(notReplaceable(join(dir, 'file'))).toBeUndefined();
    expect(notReplaceable(join(dir, 'fifo'))).toBe('a FIFO');
    expect(notReplaceable(join(dir, 'folder'))).toBe('a directory');
    expect(notReplaceable('/dev/null')).toBe('a device');
    expect(notReplaceable(join(dir, 'to-file'))).toBe('a symbolic link');
    expect(notReplaceable(join(dir, 'to-file'), true)).toBeUndefined();
    expect(notReplaceable(join(dir, 'to-fifo'), true)).toBe('a FIFO');
  });

  it('says nothing of a path it cannot look at (through a file): the write says why it cannot', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), 'x');
    expect(notReplaceable(join(dir, 'file', 'x'))).toBeUndefined();
    expect(notReplaceable(join(dir, 'file', 'x'), true)).toBeUndefined();
  });
});
