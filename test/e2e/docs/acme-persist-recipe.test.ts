// docs/certificates.md "DNS-PERSIST-01", its try-it block run as written (`<!-- recipe:
// acme-persist -->`), from a folder of its own with the checkout's dist/ (the block writes
// sandbox.env where it runs), in an empty HOME and a state directory of its own (as root the
// default is /var/lib/ddedge, which a test never touches). The record is written and --check,
// asking the sandbox's name server, says a CA would accept it.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { requireTool } from '../../helpers/programs.js';
import { readmeRecipe, REPO, runRecipe, sandboxCalls } from '../../helpers/readme-recipes.js';

describe.skipIf(!requireTool('curl'))('docs/certificates.md: DNS-PERSIST-01', () => {
  it('writes the record and --check finds it valid', { timeout: 60_000 }, async () => {
    const dir = tempDir('ddedge-persist-recipe-');
    symlinkSync(join(REPO, 'dist'), join(dir, 'dist'));
    const run = await runRecipe(readmeRecipe('acme-persist'), {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, DDEDGE_STATE_DIR: join(dir, 'state') },
      timeoutMs: 50_000,
    });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(
      /_validation-persist\.example\.com TXT "letsencrypt\.org; accounturi=https:\/\/[^/;]+\/acme\/acct\/123456789; policy=wildcard; persistUntil=\d+" added \(valid until /,
    );
    expect(run.output).toContain('_validation-persist.example.com: letsencrypt.org would accept this record');
    expect(run.output).toContain('the domain, its wildcard and every name below it');
    expect(sandboxCalls(run.output)).toEqual({ 'service/dnslist': 1, 'service/dnscreate': 1 });
  });
});
