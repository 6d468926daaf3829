// ddedge status: what the cache holds, read only.
import { describe, expect, it } from 'vitest';
import { writeHistory } from '../../../../src/state/history.js';
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

  it('--history: newest first, narrowed by --host, --since and --limit; a long failure text whole', async () => {
    const dir = tempDir('ddedge-status-');
    const long = `provider said: ${'x'.repeat(400)} end`;
    writeHistory(dir, {
      version: 1,
      entries: [
        {
          at: '2026-11-01T00:00:00.000Z',
          host: 'a.example.com',
          type: 'A',
          event: 'changed',
          new: '81.0.2.1',
          via: 'dyndns',
        },
        {
          at: '2026-11-02T00:00:00.000Z',
          host: 'b.example.com',
          type: 'A',
          event: 'failed',
          message: long,
          reason: 'refused',
        },
        {
          at: '2026-11-03T00:00:00.000Z',
          host: 'a.example.com',
          type: 'A',
          event: 'changed',
          old: '81.0.2.1',
          new: '81.0.2.2',
          via: 'dyndns',
        },
      ],
    });
    const lines = async (...args: string[]) => {
      const run = await runMain(['status', '--state-dir', dir, '--history', ...args], baseEnv());
      expect(run.code, run.stderr).toBe(0);
      return run.stdout
        .trim()
        .split('\n')
        .map((line) => `${line.slice(5, 10)} ${line.split(' ')[1]}`);
    };
    expect(await lines()).toEqual(['11-03 a.example.com', '11-02 b.example.com', '11-01 a.example.com']);
    expect(await lines('--host', 'A.Example.com')).toEqual(['11-03 a.example.com', '11-01 a.example.com']);
    expect(await lines('--since', '2026-11-02')).toEqual(['11-03 a.example.com', '11-02 b.example.com']);
    expect(await lines('--limit', '1')).toEqual(['11-03 a.example.com']);
    const all = await runMain(['status', '--state-dir', dir, '--history'], baseEnv());
    expect(all.stdout).toContain(`${long}\n`);
    const none = await runMain(['status', '--state-dir', dir, '--history', '--host', 'c.example.com'], baseEnv());
    expect(none.stdout).toBe('no entry of the address history matches\n');
  });

  it('--history: refuses a --since or --limit it cannot read, and narrowing without --history', async () => {
    const dir = tempDir('ddedge-status-');
    const run = (...args: string[]) => runMain(['status', '--state-dir', dir, ...args], baseEnv());
    expect((await run('--history', '--since', 'yesterday')).stderr).toMatch(
      /--since: "yesterday" is neither a duration/,
    );
    expect((await run('--history', '--limit', '0')).stderr).toMatch(/--limit: "0" is not a whole number of at least 1/);
    const without = await run('--limit', '5');
    expect(without.code).toBe(2);
    expect(without.stderr).toMatch(/--limit narrows the address history: give --history with it/);
  });
});
