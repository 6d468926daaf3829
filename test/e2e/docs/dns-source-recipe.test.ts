// docs/agent.md "Address sources": the `dns:` source tried against the sandbox's name server
// (<!-- recipe: dns-source-sandbox -->), run as written with free ports: the name the example
// asks for is made through the API, and `ddedge ip` reports the address it holds.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/server.js';
import { tempDir } from '../../helpers/cli.js';
import { freePort, requireTool } from '../../helpers/programs.js';
import { readmeRecipe, REPO, runRecipe, withPorts } from '../../helpers/readme-recipes.js';

describe.skipIf(!requireTool('curl'))('docs/agent.md: a dns: address source against the sandbox', () => {
  it('reports the address the name holds at the sandbox, as the example in the list of sources asks for it', async () => {
    const recipe = readmeRecipe('dns-source-sandbox');
    // The example the list of sources gives is the one the recipe runs.
    expect(recipe).toContain('--ip-source dns:myip.example.com@127.0.0.1:5353');
    const dir = tempDir('ddedge-dns-source-recipe-');
    symlinkSync(join(REPO, 'dist'), join(dir, 'dist'));
    const run = await runRecipe(withPorts(recipe, { 8443: await freePort(), 5353: await freePort() }), {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir },
      timeoutMs: 120_000,
    });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toBe('81.0.2.15\n');
  });

  // A sandbox left over from an earlier try still holds the port: the recipe's own sandbox stops
  // at once (its error in sandbox.log), and the recipe must stop with that error shown, not go on
  // against the old sandbox and its old state.
  it('with the port taken by a leftover sandbox: stops, showing why, and asks the old one nothing', async () => {
    const leftover = await startSandbox({ dnsPort: 0 });
    try {
      const dir = tempDir('ddedge-dns-source-recipe-');
      symlinkSync(join(REPO, 'dist'), join(dir, 'dist'));
      const script = withPorts(readmeRecipe('dns-source-sandbox'), {
        8443: Number(new URL(leftover.url).port),
        5353: leftover.dnsPort!,
      });
      const run = await runRecipe(script, {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', HOME: dir },
        timeoutMs: 120_000,
      });
      expect(run.code, run.output).not.toBe(0);
      expect(run.output).toContain('the address is already in use');
      expect(run.output).not.toContain('81.0.2.15');
      expect([...leftover.calls.keys()]).toEqual([]);
    } finally {
      await leftover.close();
    }
  });

  // The log is made by the shell of the background job, a moment after the wait begins: until
  // then the wait says nothing (a trial under load printed grep's "No such file" there).
  it("waits quietly while the sandbox's log is not there yet", async () => {
    const wait = readmeRecipe('dns-source-sandbox')
      .split('\n')
      .filter((line) => line.includes('sandbox.log') && !line.includes('>sandbox.log'))
      .join('\n');
    expect(wait).toContain('listening on');
    const dir = tempDir('ddedge-dns-source-recipe-');
    const script = `(sleep 1 && echo 'ddedge sandbox listening on http://127.0.0.1:1' > sandbox.log) &\n${wait}\necho waited`;
    const run = await runRecipe(script, {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir },
      timeoutMs: 60_000,
    });
    expect(run).toEqual({ code: 0, output: 'waited\n' });
  });
});
