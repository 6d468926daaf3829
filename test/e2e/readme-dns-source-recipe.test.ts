// README "Address sources": the `dns:` source tried against the sandbox's name server
// (<!-- recipe: dns-source-sandbox -->), run as written with free ports: the name the example
// asks for is made through the API, and `ddedge ip` reports the address it holds.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { freePort, hasProgram } from '../helpers/pebble.js';
import { readmeRecipe, REPO, runRecipe, withPorts } from '../helpers/readme-recipes.js';

describe.skipIf(!hasProgram('curl'))('README: a dns: address source against the sandbox', () => {
  it('reports the address the name holds at the sandbox, as the example in the list of sources asks for it', async () => {
    const recipe = readmeRecipe('dns-source-sandbox');
    // The example the list of sources gives is the one the recipe runs.
    expect(recipe).toContain('--ip-source dns:myip.example.com@127.0.0.1:5353');
    const dir = tempDir('ddedge-dns-source-recipe-');
    symlinkSync(join(REPO, 'dist'), join(dir, 'dist'));
    const run = await runRecipe(withPorts(recipe, { 8443: await freePort(), 5353: await freePort() }), { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir }, timeoutMs: 120_000 });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toBe('81.0.2.15\n');
  });
});
