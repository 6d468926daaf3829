// A JSON zone file that is not valid JSON: where it is broken is said whether or not --service
// names the zone (without it, the file cannot name one itself; the broken JSON is the first thing
// to mend). Nothing is sent: no provider is even asked.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, runMain, tempDir } from '../../helpers/cli.js';

const env = () =>
  baseEnv({
    DDEDGE_API_URL: 'http://127.0.0.1:1',
    DDEDGE_API_USER: 'u',
    DDEDGE_API_PASSWORD: 'pw-json-syntax-Zq81x',
    DDEDGE_STATE_DIR: tempDir('ddedge-state-'),
  });

describe('a JSON zone file with a syntax error', () => {
  // The comma after the first element is missing: line 3, column 3.
  const broken =
    '[\n  {"name": "www", "type": "A", "value": "192.0.2.1"}\n  {"name": "mail", "type": "A", "value": "192.0.2.2"}\n]\n';

  it.each([[['--service', 'example.com']], [[]]])('zone plan %j FILE names the line and column', async (flags) => {
    const file = join(tempDir(), 'zone.json');
    writeFileSync(file, broken);
    for (const action of ['plan', 'apply']) {
      const run = await runMain(['zone', action, ...flags, file], env());
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^ddedge: ${file.replace(/[.]/g, '\\.')}:3:3: not valid JSON \\(`));
      expect(run.stderr).not.toContain('pw-json-syntax-Zq81x');
    }
  });

  it('a valid JSON file without --service is told that JSON names no zone', async () => {
    const file = join(tempDir(), 'zone.json');
    writeFileSync(file, '[]\n');
    const run = await runMain(['zone', 'plan', file], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('ddedge: zone: which zone? the JSON form names no zone: give --service NAME');
  });
});
