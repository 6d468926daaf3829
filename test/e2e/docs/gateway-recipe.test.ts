// docs/gateway.md "The DNS gateway": the try-it block (<!-- recipe: gateway-sandbox -->) run as written:
// the sandbox, a key made with keygen, the gateway in front of the sandbox, an nsupdate signed
// with `-k`, the record read back from the sandbox's name server, an update outside the key's
// grant refused and named in the gateway's log. It runs unchanged, in an empty folder holding a
// link to dist/, in a network of its own where 5353 and 8443 are taken (as on a desktop).
// A gateway that cannot start (its DNS port taken) ends the block with a failure within its
// bounded wait, instead of a wait that never ends, and the block shows the gateway's log saying why.
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { requireTool } from '../../helpers/programs.js';
import { readmeRecipe, REPO, runRecipe } from '../../helpers/readme-recipes.js';

const TOOLS =
  requireTool('nsupdate', 'bind9-dnsutils') &&
  requireTool('dig', 'bind9-dnsutils') &&
  requireTool('curl') &&
  requireTool('unshare', 'util-linux') &&
  requireTool('ip', 'iproute2');

function folderWithDist(): string {
  const dir = tempDir('ddedge-gateway-recipe-');
  symlinkSync(join(REPO, 'dist'), join(dir, 'dist'));
  return dir;
}

describe.skipIf(!TOOLS)('docs/gateway.md: try the gateway in front of the sandbox', () => {
  it('tells a fresh clone, which has no dist/, to build first', () => {
    const readme = readFileSync(join(REPO, 'docs/gateway.md'), 'utf8');
    const before = readme.slice(0, readme.indexOf('<!-- recipe: gateway-sandbox -->'));
    expect(before.trimEnd().slice(before.trimEnd().lastIndexOf('\n\n'))).toMatch(
      /from a checkout, after `npm ci && npm run build`/,
    );
  });

  it('adds the challenge through the gateway, refuses what the key may not do, and says why in its log, with no other warning', async () => {
    const dir = folderWithDist();
    const run = await runRecipe(readmeRecipe('gateway-sandbox'), {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir },
      timeoutMs: 120_000,
      ownNetwork: {},
    });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/healthy: 1 zone read/);
    expect(run.output).toMatch(/^"token"$/m);
    expect(run.output).toMatch(/update failed: REFUSED/);
    expect(run.output).toMatch(
      /gateway: update zone example\.com, key acme\.example\.com, from 127\.0\.0\.1: REFUSED: .*www2\.example\.com/,
    );
    // The refusal is the one warning: the block names the gateway (--primary-name).
    const warnings = readFileSync(join(dir, 'gateway.log'), 'utf8')
      .split('\n')
      .filter((line) => /^(warn|error):/.test(line));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/REFUSED: the key may not change A at www2\.example\.com/);
  });

  it('ends with a failure, within its bounded wait, when the gateway cannot start', { timeout: 150_000 }, async () => {
    const dir = folderWithDist();
    const started = Date.now();
    // Another program holds the gateway's DNS port.
    const run = await runRecipe(readmeRecipe('gateway-sandbox'), {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir },
      timeoutMs: 120_000,
      ownNetwork: { taken: [5354] },
    });
    // Not killed at the test's bound (code null): the block itself gave up, and said so.
    expect(run.code, run.output).not.toBeNull();
    expect(run.code).not.toBe(0);
    expect(Date.now() - started).toBeLessThan(100_000);
    // The reader sees why, not only the log file: the block shows the gateway's log when it stopped.
    expect(run.output).toMatch(/--dns-listen 127\.0\.0\.1:5354: the address is already in use/);
    expect(run.output).not.toMatch(/update failed|^"token"$/m);
  });
});
