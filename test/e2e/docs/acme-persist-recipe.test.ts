// docs/certificates.md "DNS-PERSIST-01", its try-it block run as written (`<!-- recipe:
// acme-persist -->`), from the checkout in an empty HOME; the page's ports (8443, 5353) become
// free ones. The record is written and --check, asking the sandbox's name server, says a CA
// would accept it.
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { freePort, requireTool } from '../../helpers/programs.js';
import { readmeRecipe, REPO, runRecipe, sandboxCalls, withPorts } from '../../helpers/readme-recipes.js';

describe.skipIf(!requireTool('curl'))('docs/certificates.md: DNS-PERSIST-01', () => {
  it('writes the record and --check finds it valid', { timeout: 60_000 }, async () => {
    const ports = { 8443: await freePort(), 5353: await freePort() };
    const run = await runRecipe(withPorts(readmeRecipe('acme-persist'), ports), {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '', HOME: tempDir('ddedge-recipe-home-') },
      timeoutMs: 50_000,
    });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(
      /_validation-persist\.example\.com TXT "letsencrypt\.org; accounturi=https:\/\/acme-v02\.api\.letsencrypt\.org\/acme\/acct\/123456789; policy=wildcard; persistUntil=\d+" added \(valid until /,
    );
    expect(run.output).toContain('_validation-persist.example.com: letsencrypt.org would accept this record');
    expect(run.output).toContain('the domain, its wildcard and every name below it');
    expect(sandboxCalls(run.output)).toEqual({ 'service/dnslist': 1, 'service/dnscreate': 1 });
  });
});
