// docs/agent.md "Address sources": the `dns:` source tried against the sandbox's name server
// (<!-- recipe: dns-source-sandbox -->), run as written in a network of its own where 5353 and
// 8443 are taken (as on a desktop): the sandbox picks free ports, the recipe reads them, the name
// the example asks for is made through the API, and `ddedge ip` reports the address it holds.
import { symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { requireTool } from '../../helpers/programs.js';
import { readmeRecipe, REPO, runRecipe } from '../../helpers/readme-recipes.js';

const TOOLS = requireTool('unshare', 'util-linux') && requireTool('ip', 'iproute2');

describe.skipIf(!TOOLS)('docs/agent.md: a dns: address source against the sandbox', () => {
  it('reports the address the name holds at the sandbox, as the example in the list of sources asks for it', async () => {
    const recipe = readmeRecipe('dns-source-sandbox');
    // The example the list of sources gives is the one the recipe runs.
    expect(recipe).toContain('--ip-source dns:myip.example.com@$SANDBOX_DNS');
    const dir = tempDir('ddedge-dns-source-recipe-');
    symlinkSync(join(REPO, 'dist'), join(dir, 'dist'));
    writeFileSync(join(dir, 'sandbox.env'), 'SANDBOX_PORT=1 # a previous run\n');
    const run = await runRecipe(recipe, {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir },
      timeoutMs: 120_000,
      ownNetwork: {},
    });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toBe('81.0.2.15\n');
  });

  // A sandbox that cannot start (here a dist/ that fails at once, as a broken build would): the
  // recipe stops with its error shown, instead of waiting out its bound or going on without it.
  it('stops at once, showing why, when the sandbox cannot start', async () => {
    const dir = tempDir('ddedge-dns-source-recipe-');
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'ddedge.mjs'), 'console.error("ddedge: cannot start"); process.exit(2);\n');
    const started = Date.now();
    const run = await runRecipe(readmeRecipe('dns-source-sandbox'), {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir },
      timeoutMs: 120_000,
    });
    expect(run.code, run.output).not.toBe(0);
    expect(run.code).not.toBeNull();
    expect(run.output).toContain('ddedge: cannot start');
    expect(run.output).not.toContain('81.0.2.15');
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  // The file is made by the shell of the background job, a moment after the wait begins: until
  // then the wait says nothing (a trial under load printed grep's "No such file" there).
  it("waits quietly while the sandbox's file is not there yet", async () => {
    const wait = readmeRecipe('dns-source-sandbox')
      .split('\n')
      .filter((line) => line.includes('grep -qs SANDBOX_PORT'))
      .join('\n');
    expect(wait).toContain('seq 60');
    const dir = tempDir('ddedge-dns-source-recipe-');
    const script = `(sleep 1 && echo SANDBOX_PORT=1 > sandbox.env) &\n${wait}\necho waited`;
    const run = await runRecipe(script, {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir },
      timeoutMs: 60_000,
    });
    expect(run).toEqual({ code: 0, output: 'waited\n' });
  });
});
