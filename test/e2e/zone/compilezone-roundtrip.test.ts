// A complete export (`zone export --complete`) put through BIND's named-compilezone, which
// rewrites it in BIND's canonical form: every record with its TTL, names absolute, comments
// gone (so the marks ddedge put on the provider's `$TTL` and on its name server's glue are
// gone too). `zone plan` of what named-compilezone wrote must still change nothing. The built
// dist/ddedge.mjs against the sandbox and its name server, and BIND's own program.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeEach, describe, expect, it } from 'vitest';
import { withApi } from '../../helpers/agent-env.js';
import { baseEnv, runDist, tempDir } from '../../helpers/cli.js';
import { emptyZone, entryAdder } from '../../helpers/zone.js';
import { requireTool } from '../../helpers/programs.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const ZONE = 'compiled.example';
const compilezone = requireTool('named-compilezone', 'bind9-utils');
const sandbox = useSandbox({ dnsPort: 0 });
let cwd: string;
beforeEach(async () => {
  cwd = tempDir('ddedge-cwd-');
  const service = emptyZone(sandbox, ZONE);
  const add = entryAdder(service);
  // Records at the provider's default TTL and records with TTLs of their own, some equal to the
  // default (pinned: they must stay pinned), some not.
  add('1', ZONE, 'A', '192.0.2.1');
  add('2', ZONE, 'MX', `mail.${ZONE}`, '3600', '10');
  add('3', `mail.${ZONE}`, 'A', '192.0.2.25', '300');
  add('4', `www.${ZONE}`, 'CNAME', ZONE);
  add('5', ZONE, 'TXT', 'v=spf1 mx -all', '600');
  add('6', `api.${ZONE}`, 'AAAA', '2001:db8::6', '86400');
  add('7', `_sip._tcp.${ZONE}`, 'SRV', `5 5060 sip.${ZONE}`, '-', '10');
  add('8', `sip.${ZONE}`, 'A', '192.0.2.7', '60');
});

const env = () => baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: tempDir('ddedge-state-'), DDEDGE_SERVICE: ZONE });

describe('zone export --complete through named-compilezone', () => {
  it.skipIf(!compilezone)(
    'plans no change from the file BIND wrote, in-zone name server glue and pinned TTLs included',
    async () => {
      const exported = await runDist(
        ['zone', 'export', '--complete', '--dns-server', `127.0.0.1:${sandbox.dnsPort}`, '--output', 'full.zone'],
        env(),
        cwd,
      );
      expect(exported.code, exported.stderr).toBe(0);
      // The sandbox's name server is ns1.<zone>, inside the zone, with no record of the zone: glue.
      expect(readFileSync(join(cwd, 'full.zone'), 'utf8')).toMatch(/^ns1 \d+ IN A 127\.0\.0\.1 ;/m);

      await promisify(execFile)(compilezone!, [
        '-i',
        'none',
        '-o',
        join(cwd, 'out.zone'),
        ZONE,
        join(cwd, 'full.zone'),
      ]).catch((error: { stdout: string; stderr: string }) => {
        throw new Error(`named-compilezone refused the complete export:\n${error.stdout}${error.stderr}`);
      });
      const compiled = readFileSync(join(cwd, 'out.zone'), 'utf8');
      // BIND's form: no comment survives, every record carries its TTL.
      expect(compiled).not.toContain('ddedge:');
      expect(compiled).toMatch(/^ns1\.compiled\.example\.\s+\d+\s+IN\s+A\s+127\.0\.0\.1$/m);

      const plan = await runDist(['zone', 'plan', 'out.zone', '--json'], env(), cwd);
      expect(plan.code, plan.stderr).toBe(0);
      const report = JSON.parse(plan.stdout);
      expect(report.changes, compiled).toEqual([]);
      expect(report.summary).toMatchObject({ create: 0, update: 0, delete: 0, unchanged: 8 });
      expect(report.kept).toEqual(
        expect.arrayContaining([
          {
            name: `ns1.${ZONE}`,
            type: 'A',
            reason: `in the file, left to the provider (the address of its name server ns1.${ZONE})`,
          },
        ]),
      );
      const drift = await runDist(['zone', 'plan', 'out.zone', '--expect-no-changes'], env(), cwd);
      expect(drift.code, drift.stdout + drift.stderr).toBe(0);

      // Edits to BIND's file are still changes: a TTL of a record at the default, a new record
      // written with the default TTL (created with it), the pinned record moved to the default's value.
      const edited = compiled
        .replace(/^(www\.compiled\.example\.\s+)300(\s)/m, '$1600$2')
        .replace(/^(sip\.compiled\.example\.\s+)60(\s)/m, '$1300$2')
        .concat(`new.${ZONE}. 300 IN A 192.0.2.99\n`);
      writeFileSync(join(cwd, 'edited.zone'), edited);
      const changed = await runDist(['zone', 'plan', 'edited.zone', '--json'], env(), cwd);
      expect(changed.code, changed.stderr).toBe(0);
      const shown = JSON.parse(changed.stdout).changes.map(
        (c: { action: string; name: string; after: { ttl: number | null } }) => `${c.action} ${c.name} ${c.after.ttl}`,
      );
      expect(shown.sort()).toEqual([`create new.${ZONE} 300`, `update sip.${ZONE} 300`, `update www.${ZONE} 600`]);
    },
  );
});
