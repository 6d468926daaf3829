// `-` as a file name means a standard stream, as in every Unix tool: `zone export --output -`
// writes to stdout, `zone plan -` and `zone apply -` read the zone from stdin. Through the built
// file, with real pipes.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { withApi } from '../../helpers/agent-env.js';
import { baseEnv, runDist, tempDir } from '../../helpers/cli.js';
import { emptyZone } from '../../helpers/zone.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const ZONE = 'streams.example';
const sandbox = useSandbox();
let stateDir: string;
beforeEach(() => {
  stateDir = tempDir('ddedge-state-');
  const service = emptyZone(sandbox, ZONE);
  service.dns.push({ entityID: '1', name: ZONE, type: 'A', ttl: '-', priority: '-', value: '192.0.2.1' });
  service.dns.push({ entityID: '2', name: `www.${ZONE}`, type: 'A', ttl: '300', priority: '-', value: '192.0.2.2' });
});
const env = () => baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: stateDir });
// The master file's first comment carries the time of the export.
const untimed = (text: string) => text.replace(/, \d{4}-\d\d-\d\dT[\d:.]+Z/, ', TIME');

describe('zone export --output -', () => {
  it('writes to standard output the same bytes as without --output, and no file named "-"', async () => {
    for (const format of ['bind', 'json']) {
      const cwd = tempDir('ddedge-cwd-');
      const plain = await runDist(['zone', 'export', '--service', ZONE, '--format', format], env(), cwd);
      const dashed = await runDist(
        ['zone', 'export', '--service', ZONE, '--format', format, '--output', '-'],
        env(),
        cwd,
      );
      expect(dashed.code, dashed.stderr).toBe(0);
      expect(untimed(dashed.stdout)).toBe(untimed(plain.stdout));
      expect(dashed.stdout).toContain('192.0.2.2');
      expect(existsSync(join(cwd, '-'))).toBe(false);
    }
  });
});
