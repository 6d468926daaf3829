// docs/running.md "Set-up in one command": `ddedge init --non-interactive` against the sandbox,
// then `ddedge update` with nothing but the settings file (<!-- recipe: init-non-interactive -->),
// run as written (the sandbox on a port it picks), as a user. A try leaves the user's own settings
// alone (a settings file naming a sandbox that is gone would send every later command there), so
// it runs again as it is, where a second `init` into the same file would refuse.
import { chownSync, existsSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST, tempDir } from '../../helpers/cli.js';
import { requireTool } from '../../helpers/programs.js';
import { readmeRecipe, runRecipe } from '../../helpers/readme-recipes.js';
import { distForOtherUsers } from '../../helpers/staged-dist.js';

const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;

describe.skipIf(!requireTool('bash'))('docs/running.md: ddedge init, for scripts', () => {
  it('writes the settings file after one read of the zone, and update then needs no other setting', async () => {
    const home = tempDir('ddedge-init-recipe-');
    symlinkSync(dirname(asRoot ? distForOtherUsers() : DIST), join(home, 'dist'));
    if (asRoot) chownSync(home, NOBODY, NOBODY);
    const run = await runRecipe(readmeRecipe('init-non-interactive'), {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home },
      timeoutMs: 120_000,
      uid: asRoot ? NOBODY : undefined,
    });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/home\.example\.com: A 192\.0\.2\.20; ddedge keeps it up to date/);
    expect(run.output).toMatch(/home\.example\.com A 81\.0\.2\.15 updated/);
    expect(run.output).toMatch(/^wrote \S+\/ddedge\/credentials\/api-password, \S+\/ddedge\/ddedge\.env$/m);
    expect(existsSync(join(home, '.config', 'ddedge'))).toBe(false);
    expect(existsSync(join(home, '.local', 'state', 'ddedge'))).toBe(false);

    const again = await runRecipe(readmeRecipe('init-non-interactive'), {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home },
      timeoutMs: 120_000,
      uid: asRoot ? NOBODY : undefined,
    });
    expect(again.code, again.output).toBe(0);
    expect(again.output).toMatch(/home\.example\.com A 81\.0\.2\.15 updated/);
  });
});
