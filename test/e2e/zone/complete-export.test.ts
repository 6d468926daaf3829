// `ddedge zone export --complete`: $TTL, the SOA and the apex NS as the
// zone's name server gives them (here the sandbox's, named with --dns-server), so the file loads
// as it is in BIND's named-checkzone, and `zone plan` of that file reports no change. The built
// dist/ddedge.mjs against the sandbox and its name server.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/server.js';
import { withApi } from '../../helpers/agent-env.js';
import { baseEnv, runDist, runMain, tempDir } from '../../helpers/cli.js';
import { emptyZone, entryAdder } from '../../helpers/zone.js';
import { requireTool } from '../../helpers/programs.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const ZONE = 'complete.example';
const checkzone = requireTool('named-checkzone', 'bind9-utils');
const sandbox = useSandbox({ dnsPort: 0 });
let cwd: string;
beforeEach(async () => {
  cwd = tempDir('ddedge-cwd-');
  const service = emptyZone(sandbox, ZONE);
  const add = entryAdder(service);
  add('1', ZONE, 'A', '192.0.2.1');
  add('2', ZONE, 'MX', `mail.${ZONE}`, '3600', '10');
  add('3', `mail.${ZONE}`, 'A', '192.0.2.25');
  add('4', `www.${ZONE}`, 'CNAME', ZONE);
  add('5', ZONE, 'TXT', 'v=spf1 mx -all', '600');
  // And one record a master file cannot hold: a comment, which BIND skips as ddedge's reader does.
  add('7', `alias.${ZONE}`, 'CNAME', '*.example.net');
});

const env = () => baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: tempDir('ddedge-state-'), DDEDGE_SERVICE: ZONE });
const dnsServer = () => `127.0.0.1:${sandbox.dnsPort}`;

describe('zone export --complete', () => {
  it('writes $TTL, the SOA and NS the name server gives; zone plan of the file changes nothing', async () => {
    const run = await runDist(
      ['zone', 'export', '--complete', '--dns-server', dnsServer(), '--output', 'full.zone'],
      env(),
      cwd,
    );
    expect(run.code, run.stderr).toBe(0);
    const text = readFileSync(join(cwd, 'full.zone'), 'utf8');
    const lines = text.split('\n');
    const origin = lines.indexOf(`$ORIGIN ${ZONE}.`);
    // The provider's default TTL, as the name server gives it for a record kept at "-".
    expect(lines[origin + 1]).toMatch(/^\$TTL 300 ; ddedge: the provider's default TTL/);
    expect(lines[origin + 2]).toMatch(
      new RegExp(`^@ 300 IN SOA ns1\\.${ZONE}\\. hostmaster\\.${ZONE}\\. \\d+ 3600 600 604800 60$`),
    );
    expect(lines[origin + 3]).toBe(`@ 300 IN NS ns1.${ZONE}.`);
    // The sandbox's name server is ns1.<zone>, which the zone has no record for: its glue, marked.
    expect(lines[origin + 4]).toBe(
      "ns1 300 IN A 127.0.0.1 ; ddedge: the provider's name server address, not a record of the zone",
    );

    const plan = await runDist(['zone', 'plan', 'full.zone', '--json'], env(), cwd);
    expect(plan.code, plan.stderr).toBe(0);
    const report = JSON.parse(plan.stdout);
    expect(report.changes).toEqual([]);
    expect(report.summary).toMatchObject({ create: 0, update: 0, delete: 0, unchanged: 5 });
    expect(report.kept).toEqual(
      expect.arrayContaining([
        { name: ZONE, type: 'SOA', reason: 'in the file, left to the provider (SOA)' },
        { name: ZONE, type: 'NS', reason: 'in the file, left to the provider (apex NS)' },
      ]),
    );
  });

  it("writes no glue when the zone has the name server's address as a record", async () => {
    sandbox.model.services
      .find((s) => s.name === ZONE)!
      .dns.push({ entityID: '6', name: `ns1.${ZONE}`, type: 'A', ttl: '-', priority: '-', value: '192.0.2.53' });
    const run = await runMain(['zone', 'export', '--complete', '--dns-server', dnsServer()], env(), cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('name server address');
    expect(run.stdout).toMatch(/^ns1 +IN A +192\.0\.2\.53$/m);
  });

  it.skipIf(!checkzone)('the file loads as it is in named-checkzone', async () => {
    const run = await runMain(
      ['zone', 'export', '--complete', '--dns-server', dnsServer(), '--output', 'full.zone'],
      env(),
      cwd,
    );
    expect(run.code, run.stderr).toBe(0);
    const file = join(cwd, 'full.zone');
    const { stdout } = await promisify(execFile)(checkzone!, [ZONE, file]).catch(
      (error: { stdout: string; stderr: string }) => {
        throw new Error(
          `named-checkzone refused the complete export:\n${error.stdout}${error.stderr}\n${readFileSync(file, 'utf8')}`,
        );
      },
    );
    expect(stdout).toMatch(/loaded serial \d+/);
    expect(stdout).toContain('OK');
    // And a plain export does not: it has no SOA (what --complete is for).
    const plain = await runMain(['zone', 'export', '--output', 'plain.zone'], env(), cwd);
    expect(plain.code, plain.stderr).toBe(0);
    await expect(promisify(execFile)(checkzone!, [ZONE, join(cwd, 'plain.zone')])).rejects.toMatchObject({
      stdout: expect.stringMatching(/no SOA|not loaded/),
    });
  });

  it('is exit 2 with --format json or with plan, and exit 4 when the name server gives no SOA', async () => {
    const json = await runMain(['zone', 'export', '--complete', '--format', 'json'], env(), cwd);
    expect([json.code, json.stderr]).toEqual([
      2,
      expect.stringMatching(/--complete: for zone export in the bind format/),
    ]);
    const plan = await runMain(['zone', 'plan', '--complete', join(cwd, 'x.zone')], env(), cwd);
    expect([plan.code, plan.stderr]).toEqual([2, expect.stringMatching(/--complete: for zone export/)]);
    // Another sandbox's name server, which does not serve this zone: it answers REFUSED.
    const other = await startSandbox({ dnsPort: 0 });
    try {
      const refused = await runMain(
        ['zone', 'export', '--complete', '--dns-server', `127.0.0.1:${other.dnsPort}`, '--output', 'x.zone'],
        env(),
        cwd,
      );
      expect(refused.code, refused.stderr).toBe(4);
      expect(refused.stderr).toMatch(/REFUSED for complete\.example SOA/);
    } finally {
      await other.close();
    }
  });
});
