// docs/certificates.md "Try it with a real CA, no account", run as written: the shell blocks marked
// `<!-- recipe: acme-pebble-* -->` are taken from that page and run in order in one bash, as a
// reader pasting them into one shell would, from the checkout (they use dist/ and bin/), in an
// empty HOME, in a network of its own (Pebble's fixed ports cannot meet another run's; 5353 and
// 8443 are taken there, as on a desktop).
// lego through the gateway's httpreq door (acme-pebble-httpreq) runs between the start and stop blocks as well.
// Between the lego block and the stop block the test asks the sandbox's name server whether a
// challenge was left behind (its only addition, and it changes nothing).
// If the page's blocks change in a way that no longer works, this fails.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { requireTool } from '../../helpers/programs.js';
import { readmeRecipe, REPO, runRecipe, sandboxCalls } from '../../helpers/readme-recipes.js';

const TOOLS =
  requireTool('pebble') &&
  requireTool('certbot') &&
  requireTool('lego') &&
  requireTool('openssl') &&
  requireTool('curl') &&
  requireTool('dig', 'bind9-dnsutils') &&
  requireTool('unshare', 'util-linux') &&
  requireTool('ip', 'iproute2');

describe.skipIf(!TOOLS)('docs/certificates.md: Try it with a real CA, no account', () => {
  it('certbot with the hooks and lego with the exec provider each get example.com and *.example.com from Pebble', {
    timeout: 280_000,
  }, async () => {
    const home = tempDir('ddedge-recipe-home-');
    const leftOver = `dig @127.0.0.1 -p $SANDBOX_DNS_PORT +short TXT _acme-challenge.example.com | sed 's/^/left over: /'\necho checked-left-over\n`;
    const script = [
      readmeRecipe('acme-pebble-start'),
      readmeRecipe('acme-pebble-certbot'),
      readmeRecipe('acme-pebble-lego'),
      leftOver,
      readmeRecipe('acme-pebble-stop'),
    ].join('\n');
    const run = await runRecipe(script, {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '', HOME: home },
      timeoutMs: 260_000,
      ownNetwork: {},
    });
    expect(run.code, run.output).toBe(0);
    const try_ = join(home, 'pebble-try');
    expect(existsSync(join(try_, 'certbot', 'live', 'example.com', 'cert.pem')), run.output).toBe(true);
    expect(existsSync(join(try_, 'lego', 'certificates', 'example.com.crt')), run.output).toBe(true);
    // certbot's certificate chains up to Pebble's root.
    expect(run.output).toMatch(/live\/example\.com\/cert\.pem: OK/);
    // Each block prints its certificate's names.
    expect(run.output.match(/DNS:example\.com, DNS:\*\.example\.com/g), run.output).toHaveLength(2);
    // Nothing left at the challenge name, and the stop block ran (it kills both jobs, so they were alive).
    expect(run.output).toContain('checked-left-over');
    expect(run.output).not.toContain('left over:');
    // What the page says the two certificates cost: 8 API calls each.
    expect(sandboxCalls(readFileSync(join(home, 'pebble-try', 'sandbox.log'), 'utf8'))).toEqual({
      'service/dnslist': 8,
      'service/dnscreate': 4,
      'service/dnsdelete': 4,
    });
  });

  it('the start block, in a folder without dist/ (a clone not built yet), stops at once and shows why', async () => {
    const here = tempDir('ddedge-recipe-unbuilt-');
    const run = await runRecipe(readmeRecipe('acme-pebble-start'), {
      cwd: here,
      env: { PATH: process.env.PATH ?? '', HOME: here },
      timeoutMs: 60_000,
    });
    // Not killed at the test's bound (code null): the block itself stopped at its check of the sandbox
    // (shown the sandbox's log), not later at a variable the sandbox's file should have set, nor in Pebble.
    expect(run.code, run.output).not.toBeNull();
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/Cannot find module '.*dist\/ddedge\.mjs'/);
    expect(run.output).not.toMatch(/unbound variable|flag needs an argument/);
  });

  it("lego through the gateway's httpreq door gets example.com and *.example.com from Pebble", {
    timeout: 280_000,
  }, async () => {
    const home = tempDir('ddedge-recipe-home-');
    const script = [
      readmeRecipe('acme-pebble-start'),
      readmeRecipe('acme-pebble-httpreq'),
      readmeRecipe('acme-pebble-stop'),
    ].join('\n');
    const run = await runRecipe(script, {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '', HOME: home },
      timeoutMs: 260_000,
      ownNetwork: {},
    });
    expect(run.code, run.output).toBe(0);
    expect(existsSync(join(home, 'pebble-try', 'lego-httpreq', 'certificates', 'example.com.crt')), run.output).toBe(
      true,
    );
    expect(run.output).toMatch(/DNS:example\.com, DNS:\*\.example\.com/);
    // The page's cost of a certificate for a name and its wildcard through httpreq, 8 API calls, after the
    // gateway's first read of the zone at start.
    expect(sandboxCalls(readFileSync(join(home, 'pebble-try', 'sandbox.log'), 'utf8'))).toEqual({
      'service/dnslist': 1 + 4,
      'service/dnscreate': 2,
      'service/dnsdelete': 2,
    });
  });
});
