// The metrics file is written whole and renamed into place, which replaces what the path holds:
// a path that leads to no regular file (a FIFO, a device such as /dev/null) is refused and left as
// it was, never replaced by a file. A link to a regular file is replaced, as textfile collectors expect.
import { execFileSync } from 'node:child_process';
import { lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeMetrics } from '../../../src/agent/metrics.js';
import { loadConfig } from '../../../src/config/load.js';
import { emptyState } from '../../../src/state/state.js';
import { tempDir } from '../../helpers/cli.js';

const config = loadConfig({ flags: { host: ['home.example.com'] }, env: {}, purpose: 'state' });

describe('the metrics file', () => {
  it('is refused where the path leads to a FIFO (itself or through a link), which stays as it was', () => {
    const dir = tempDir();
    const fifo = join(dir, 'ddedge.prom');
    execFileSync('mkfifo', [fifo]);
    symlinkSync(fifo, join(dir, 'link.prom'));
    for (const path of [fifo, join(dir, 'link.prom')])
      expect(() => writeMetrics(path, emptyState(), config, 0)).toThrow(`${path} is a FIFO, not a file`);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(lstatSync(join(dir, 'link.prom')).isSymbolicLink()).toBe(true);
  });

  it('a regular file, or none yet, is written', () => {
    const dir = tempDir();
    const file = join(dir, 'ddedge.prom');
    writeMetrics(file, emptyState(), config, 0);
    writeFileSync(file, 'old\n');
    writeMetrics(file, emptyState(), config, 0);
    expect(readFileSync(file, 'utf8')).toContain('# TYPE');
  });
});
