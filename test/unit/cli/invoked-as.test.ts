// The command a printed example uses for ddedge: as it was run.
import { describe, expect, it } from 'vitest';
import { invokedAs } from '../../../src/cli/invoked-as.js';

describe('how ddedge was run, for an example to paste', () => {
  it('is `ddedge` when installed (npm or the package: a link named ddedge; a single executable)', () => {
    expect(invokedAs('/usr/local/bin/ddedge', '/home/a', '/usr/bin/node')).toBe('ddedge');
    expect(invokedAs('/usr/local/bin/ddedge', '/', '/usr/local/bin/ddedge')).toBe('ddedge');
  });

  it('is `node PATH` from a checkout, relative to where it runs when below it', () => {
    expect(invokedAs('/src/ddedge/dist/ddedge.mjs', '/src/ddedge', '/usr/bin/node')).toBe('node dist/ddedge.mjs');
    expect(invokedAs('/src/ddedge/dist/ddedge.cjs', '/tmp', '/usr/bin/node')).toBe('node /src/ddedge/dist/ddedge.cjs');
  });
});
