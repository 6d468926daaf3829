// ddedge health: exit 0 while the last successful cycle is within the limit, 1 otherwise.
import { describe, expect, it } from 'vitest';
import { main } from '../../../../src/cli/main.js';
import { emptyState, writeState } from '../../../../src/state/state.js';
import { tempDir } from '../../../helpers/cli.js';
import { collectingIo } from '../../../helpers/main-io.js';

function stateDirWithSuccess(agoMs: number): string {
  const dir = tempDir('ddedge-health-');
  writeState(dir, { ...emptyState(), lastSuccessAt: new Date(Date.now() - agoMs).toISOString() });
  return dir;
}

describe('ddedge health', () => {
  it('is unhealthy (exit 1) before any successful cycle', async () => {
    const io = collectingIo();
    expect(await main(['health', '--state-dir', tempDir('ddedge-health-')], io)).toBe(1);
    expect(io.out).toMatch(/^unhealthy: no successful cycle yet/);
  });

  it('is healthy (exit 0) within --max-age and unhealthy past it', async () => {
    const dir = stateDirWithSuccess(10 * 60_000);
    const within = collectingIo();
    expect(await main(['health', '--state-dir', dir, '--max-age', '15m'], within)).toBe(0);
    expect(within.out).toMatch(/^healthy: last successful cycle 6\d\ds ago/);
    const past = collectingIo();
    expect(await main(['health', '--state-dir', dir, '--max-age', '5m'], past)).toBe(1);
    expect(past.out).toContain('(limit 300s)');
  });

  it('says the same in JSON', async () => {
    const io = collectingIo();
    expect(await main(['health', '--state-dir', stateDirWithSuccess(1000), '--json'], io)).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({ healthy: true, ageMs: expect.any(Number) });
  });

  it('refuses --max-age with --healthy-within, and a --max-age that is not a duration (exit 2)', async () => {
    const both = collectingIo();
    expect(await main(['health', '--max-age', '1h', '--healthy-within', '1h'], both)).toBe(2);
    expect(both.err).toContain('give --max-age or --healthy-within, not both');
    const bad = collectingIo();
    expect(await main(['health', '--state-dir', tempDir('ddedge-health-'), '--max-age', 'soon'], bad)).toBe(2);
    expect(bad.err).toContain('"soon" is not a duration');
  });
});
