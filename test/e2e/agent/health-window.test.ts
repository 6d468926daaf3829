// ddedge health has its own window (--healthy-within / DDEDGE_HEALTH_MAX_AGE; --max-age on its
// command line, as the contract writes it), apart from the cycle's re-send age DDEDGE_MAX_AGE.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, runDist, runMain, tempDir } from '../../helpers/cli.js';

/** A state directory whose last successful cycle was 20 minutes ago (default window: 15 minutes). */
function stateAged20Minutes(): Record<string, string> {
  const dir = tempDir('ddedge-state-');
  writeFileSync(
    join(dir, 'state.json'),
    JSON.stringify({ version: 1, records: {}, lastSuccessAt: new Date(Date.now() - 20 * 60_000).toISOString() }),
  );
  return baseEnv({ DDEDGE_STATE_DIR: dir });
}

describe('ddedge health', () => {
  it('does not read DDEDGE_MAX_AGE, the re-send age: 1s there is no usage error', async () => {
    const result = await runDist(['health'], { ...stateAged20Minutes(), DDEDGE_MAX_AGE: '1s' });
    expect(result).toMatchObject({ code: 1, stderr: '' });
    expect(result.stdout).toContain('(limit 900s)');
  });

  it.each([
    [['--healthy-within', '30m'], {}],
    [[], { DDEDGE_HEALTH_MAX_AGE: '30m' }],
    [['--max-age', '30m'], {}],
    [['--max-age', '30m'], { DDEDGE_HEALTH_MAX_AGE: '1m' }],
  ])('%j %j: a 30-minute window holds a success 20 minutes old', async (args, env) => {
    const result = await runMain(['health', ...args], { ...stateAged20Minutes(), ...env });
    expect(result.code, result.stderr).toBe(0);
  });

  it('a window shorter than the age is unhealthy, and a bad one names its setting', async () => {
    expect((await runMain(['health'], { ...stateAged20Minutes(), DDEDGE_HEALTH_MAX_AGE: '10m' })).code).toBe(1);
    expect(await runMain(['health'], { ...stateAged20Minutes(), DDEDGE_HEALTH_MAX_AGE: 'soon' })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('DDEDGE_HEALTH_MAX_AGE'),
    });
    expect(await runMain(['health', '--max-age', '1m', '--healthy-within', '1m'], stateAged20Minutes())).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('not both'),
    });
  });
});
