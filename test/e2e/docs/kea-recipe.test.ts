// docs/gateway-clients.md "DHCP servers (Kea, ISC DHCP)": Kea's name changes sent with nsupdate, without a DHCP
// server (<!-- recipe: kea-nsupdate -->), run as written, in a network of its own (5353, 8443 taken):
// the add of a new name puts its A at the provider and the DHCID in the gateway, another
// client's claim on the name is refused (NXRRSET) and changes nothing, and the client's removal
// leaves nothing at the name. The gateway's log says each step; its one warning is the refusal.
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

describe.skipIf(!TOOLS)("docs/gateway-clients.md: Kea's name changes without a DHCP server", () => {
  it('adds a name with its DHCID, refuses another client, and removes it', async () => {
    const dir = tempDir('ddedge-kea-recipe-');
    symlinkSync(join(REPO, 'dist'), join(dir, 'dist'));
    const run = await runRecipe(readmeRecipe('kea-nsupdate'), {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir },
      timeoutMs: 120_000,
      ownNetwork: {},
    });
    expect(run.code, run.output).toBe(0);
    // nsupdate's refusal is on stderr, the rest on stdout: the order holds within each.
    const lines = run.output.trim().split('\n');
    expect(lines).toContain('update failed: NXRRSET');
    expect(lines.filter((line) => line !== 'update failed: NXRRSET')).toEqual([
      expect.stringMatching(/^healthy: 1 zone read/),
      '192.0.2.50',
      'AAIBI55gjsrgbVLX9EGfRMGSavyeGEXHgaOpyoY6Vz/uh7U=',
      '192.0.2.50',
      expect.stringMatching(/status: NXDOMAIN/),
    ]);
    const log = readFileSync(join(dir, 'gateway.log'), 'utf8');
    expect(log).toContain(
      'key dhcp changed example.com: create laptop.dhcp.example.com A, create laptop.dhcp.example.com DHCID',
    );
    expect(log).toContain('key dhcp changed example.com: delete laptop.dhcp.example.com A');
    expect(log).toContain('key dhcp changed example.com: delete laptop.dhcp.example.com DHCID');
    const warnings = log.split('\n').filter((line) => /^(warn|error):/.test(line));
    expect(warnings).toEqual([
      expect.stringMatching(/key dhcp, from 127\.0\.0\.1: NXRRSET: .*another client holds the name/),
    ]);
  });
});
