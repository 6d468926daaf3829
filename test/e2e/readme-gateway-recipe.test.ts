// README "The DNS gateway": the try-it block (<!-- recipe: gateway-sandbox -->) run as written:
// the sandbox, a key made with keygen, the gateway in front of the sandbox, an nsupdate signed
// with `-k`, the record read back from the sandbox's name server, an update outside the key's
// grant refused and named in the gateway's log. The one change: the README's ports become free
// ports (8443, 5353, 5354, 9465), and it runs in an empty folder holding a link to dist/.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { freePort, hasProgram } from '../helpers/pebble.js';
import { readmeRecipe, REPO, runRecipe, withPorts } from '../helpers/readme-recipes.js';

const TOOLS = hasProgram('nsupdate', 'bind9-dnsutils') && hasProgram('dig', 'bind9-dnsutils') && hasProgram('curl');

describe.skipIf(!TOOLS)('README: try the gateway in front of the sandbox', () => {
  it('adds the challenge through the gateway, refuses what the key may not do, and says why in its log', async () => {
    const ports = { 8443: await freePort(), 5353: await freePort(), 5354: await freePort(), 9465: await freePort() };
    const dir = tempDir('ddedge-gateway-recipe-');
    symlinkSync(join(REPO, 'dist'), join(dir, 'dist'));
    const run = await runRecipe(withPorts(readmeRecipe('gateway-sandbox'), ports), { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir }, timeoutMs: 120_000 });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/healthy: 1 zone\(s\) read/);
    expect(run.output).toMatch(/^"token"$/m);
    expect(run.output).toMatch(/update failed: REFUSED/);
    expect(run.output).toMatch(/gateway: update zone example\.com, key acme\.example\.com, from 127\.0\.0\.1: REFUSED: .*www2\.example\.com/);
  });
});
