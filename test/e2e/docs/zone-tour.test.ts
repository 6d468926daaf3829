// docs/zone.md, "A zone as code": the sample output of step 3 (`ddedge zone plan`) is what the tour's
// commands print against a fresh sandbox, with the edit step 2 names (a second MX, a CAA record,
// a TTL on www), as the block's own comments describe it.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withApi } from '../../helpers/agent-env.js';
import { baseEnv, runDist, tempDir } from '../../helpers/cli.js';
import { REPO } from '../../helpers/readme-recipes.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });

/** The comment lines under `ddedge zone plan example.com.zone` in the tour, without their `# `. */
function samplePlan(): string[] {
  const page = readFileSync(join(REPO, 'docs/zone.md'), 'utf8');
  const tour = page.slice(page.indexOf('# A zone as code'));
  const lines = tour.split('\n');
  const at = lines.indexOf('ddedge zone plan example.com.zone');
  expect(at).toBeGreaterThan(0);
  const sample: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (!line.startsWith('# ') || /^# \d\. /.test(line)) break;
    sample.push(line.slice(2));
  }
  return sample;
}

describe("docs/zone.md's zone tour", () => {
  it('step 3 prints what the page shows', async () => {
    const dir = tempDir('ddedge-zone-tour-');
    const env = baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: join(dir, 'state') });
    const file = join(dir, 'example.com.zone');
    expect((await runDist(['zone', 'export', '--service', 'example.com', '--output', file], env, dir)).code).toBe(0);
    // Step 2's edit: a second MX, a CAA record, a TTL on www.
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(/^www +IN CNAME example\.com\.$/m, 'www 300 IN CNAME example.com.'),
    );
    appendFileSync(file, '@ 3600 IN MX 20 mx2.example.com.\n@ IN CAA 0 issue "letsencrypt.org"\n');
    const plan = await runDist(['zone', 'plan', 'example.com.zone'], env, dir);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout.trimEnd().split('\n')).toEqual(samplePlan());
  });
});
