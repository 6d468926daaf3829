// ddedge health: exit 0 while the last successful cycle is within the limit, 1 otherwise.
import { describe, expect, it } from 'vitest';
import { emptyState, writeState } from '../../../../src/state/state.js';
import { baseEnv, runMain, tempDir } from '../../../helpers/cli.js';

function stateDirWithSuccess(agoMs: number): string {
  const dir = tempDir('ddedge-health-');
  writeState(dir, { ...emptyState(), lastSuccessAt: new Date(Date.now() - agoMs).toISOString() });
  return dir;
}

describe('ddedge health', () => {
  it('is unhealthy (exit 1) before any successful cycle', async () => {
    const run = await runMain(['health', '--state-dir', tempDir('ddedge-health-')], baseEnv());
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^unhealthy: no successful cycle yet/);
  });

  it('is healthy (exit 0) within --max-age and unhealthy past it', async () => {
    const dir = stateDirWithSuccess(10 * 60_000);
    const within = await runMain(['health', '--state-dir', dir, '--max-age', '15m'], baseEnv());
    expect(within.code).toBe(0);
    expect(within.stdout).toMatch(/^healthy: last successful cycle 6\d\ds ago/);
    const past = await runMain(['health', '--state-dir', dir, '--max-age', '5m'], baseEnv());
    expect(past.code).toBe(1);
    expect(past.stdout).toContain('(limit 300s)');
  });

  it('says the same in JSON', async () => {
    const run = await runMain(['health', '--state-dir', stateDirWithSuccess(1000), '--json'], baseEnv());
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ healthy: true, ageMs: expect.any(Number) });
  });

  it('refuses --max-age with --healthy-within, and a --max-age that is not a duration (exit 2)', async () => {
    const both = await runMain(['health', '--max-age', '1h', '--healthy-within', '1h'], baseEnv());
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --max-age or --healthy-within, not both');
    const bad = await runMain(['health', '--state-dir', tempDir('ddedge-health-'), '--max-age', 'soon'], baseEnv());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"soon" is not a duration');
  });
});
