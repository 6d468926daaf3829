// README.md "Install": the try with no account against the sandbox the executable carries
// (<!-- recipe: readme-sandbox-tour -->), run as written with `ddedge` on the PATH as the reader
// has it installed, in a network of its own where 5353 and 8443 are taken (as on a desktop): the
// sandbox picks its port, the block reads it, the first update sends, the second sends nothing.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST, tempDir } from '../../helpers/cli.js';
import { requireTool } from '../../helpers/programs.js';
import { readmeRecipe, runRecipe } from '../../helpers/readme-recipes.js';

const TOOLS = requireTool('unshare', 'util-linux') && requireTool('ip', 'iproute2');

describe.skipIf(!TOOLS)("README.md: the sandbox's try with no account", () => {
  it('updates the demo host once, then sends nothing, on the port the sandbox chose', async () => {
    const dir = tempDir('ddedge-readme-tour-');
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'ddedge'), `#!/bin/sh\nexec "${process.execPath}" "${DIST}" "$@"\n`);
    chmodSync(join(dir, 'bin', 'ddedge'), 0o755);
    const run = await runRecipe(readmeRecipe('readme-sandbox-tour'), {
      cwd: dir,
      env: { PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, HOME: dir },
      timeoutMs: 60_000,
      ownNetwork: {},
    });
    expect(run.code, run.output).toBe(0);
    const lines = run.output.split('\n').filter((line) => /^home\.example\.com /.test(line));
    expect(lines).toEqual(['home.example.com A 81.0.2.15 updated', 'home.example.com A 81.0.2.15 unchanged']);
    expect(run.output).toContain('via dyndns');
    // Through the dynamic DNS interface, once: the second run found the address unchanged.
    expect(run.output.match(/^sandbox: GET \/\w+\/ /gm)).toHaveLength(1);
  });
});
