// ddedge daemon: a state directory it could never write is exit 2 at start, as for `update`,
// not a cycle that fails again at every interval.
import { describe, expect, it, vi } from 'vitest';
import { baseEnv, runMain } from '../../../helpers/cli.js';

// The daemon tunes V8 for a long run (flags for the whole process): not in a test's worker.
vi.mock('../../../../src/lib/long-running-heap.js', () => ({
  keepLongRunningHeapSmall: () => undefined,
  collectAfterCycle: () => undefined,
}));

describe('ddedge daemon', () => {
  it('stops at start (exit 2) when the state directory cannot be made', async () => {
    const run = await runMain(
      ['daemon', '--host', 'home.example.com', '--state-dir', '/dev/null/ddedge'],
      baseEnv({ DDEDGE_DYNDNS_USER: 'demo', DDEDGE_DYNDNS_KEY: 'demo-key-123456' }),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('/dev/null/ddedge');
    expect(run.stdout).toBe('');
  });
});
