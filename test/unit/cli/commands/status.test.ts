// ddedge status: what the cache holds, read only.
import { describe, expect, it } from 'vitest';
import { emptyState, writeState } from '../../../../src/state/state.js';
import { baseEnv, runMain, tempDir } from '../../../helpers/cli.js';

describe('ddedge status', () => {
  it('says an empty cache is empty, and that no cycle succeeded', async () => {
    const dir = tempDir('ddedge-status-');
    const run = await runMain(['status', '--state-dir', dir], baseEnv());
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`no record in the cache (${dir})\nlast successful cycle: never\n`);
  });

  it('prints one line per record: address, when and how it was sent, the last error, the backoff', async () => {
    const dir = tempDir('ddedge-status-');
    const until = new Date(Date.now() + 3_600_000).toISOString();
    writeState(dir, {
      ...emptyState(),
      lastSuccessAt: '2026-01-02T03:04:05.000Z',
      records: {
        'home.example.com/A': {
          host: 'home.example.com',
          type: 'A',
          address: '81.0.2.15',
          sentAt: '2026-01-02T03:04:00.000Z',
          via: 'dyndns',
        },
        'nas.example.com/AAAA': {
          host: 'nas.example.com',
          type: 'AAAA',
          lastError: 'refused',
          lastErrorAt: '2026-01-02T03:00:00.000Z',
          backoff: { until, failures: 1, exitCode: 3, config: 'fingerprint' },
        },
      },
    });
    const run = await runMain(['status', '--state-dir', dir], baseEnv());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('home.example.com A 81.0.2.15 sent 2026-01-02T03:04:00.000Z via dyndns\n');
    expect(run.stdout).toContain(
      `nas.example.com AAAA - never sent; last error 2026-01-02T03:00:00.000Z: refused; next attempt after ${until}\n`,
    );
    expect(run.stdout).toContain('last successful cycle: 2026-01-02T03:04:05.000Z\n');
    const json = await runMain(['status', '--state-dir', dir, '--json'], baseEnv());
    expect(json.code).toBe(0);
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain('81.0.2.15');
  });

  it('--history: says when there is none yet', async () => {
    const dir = tempDir('ddedge-status-');
    const run = await runMain(['status', '--state-dir', dir, '--history'], baseEnv());
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`no address history yet (${dir})\n`);
    const json = await runMain(['status', '--state-dir', dir, '--history', '--json'], baseEnv());
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ stateDir: dir, entries: [] });
  });
});
