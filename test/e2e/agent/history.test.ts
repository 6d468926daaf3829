// The agent's address history, through the built file against the sandbox: what update
// records, what `status --history` prints, a repeated failure kept as one entry, a damaged
// file set aside, and no secret in the file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentEnv } from '../../helpers/agent-env.js';
import { CANARY, runDist } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();

const historyJson = async (env: Record<string, string>) => {
  const result = await runDist(['status', '--history', '--json'], env);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as { entries: Record<string, unknown>[] };
};

describe('address history', () => {
  it('records each change with old and new address and how it was sent; status --history prints it', async () => {
    const env = agentEnv(sandbox);
    expect((await runDist(['update', '--ip', '81.0.2.15'], env)).code).toBe(0);
    expect((await runDist(['update', '--ip', '81.0.2.15'], env)).code).toBe(0); // unchanged: no entry
    expect((await runDist(['update', '--ip', '81.0.2.16'], env)).code).toBe(0);
    const { entries } = await historyJson(env);
    expect(entries).toMatchObject([
      { host: 'home.example.com', type: 'A', event: 'changed', new: '81.0.2.15', via: 'dyndns' },
      {
        host: 'home.example.com',
        type: 'A',
        event: 'changed',
        old: '81.0.2.15',
        new: '81.0.2.16',
        via: 'dyndns',
        current: true,
      },
    ]);
    expect(entries[0]!.old).toBeUndefined();
    expect(entries[0]!.current).toBeUndefined();
    expect(typeof entries[0]!.heldMs).toBe('number');
    const text = await runDist(['status', '--history'], env);
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    // Newest first, as the page shows it.
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT\S+Z home\.example\.com A first sent 81\.0\.2\.15 via dyndns; held \d/);
    expect(lines[0]).toMatch(/ changed 81\.0\.2\.15 -> 81\.0\.2\.16 via dyndns; current for \d/);
  });

  it('an empty history says so', async () => {
    const result = await runDist(['status', '--history'], agentEnv(sandbox));
    expect(result).toMatchObject({ code: 0, stdout: expect.stringContaining('no address history yet') });
  });

  it('a failure repeated over cycles is one entry with a count, then a recovery; never the key', async () => {
    const env = agentEnv(sandbox, { DDEDGE_DYNDNS_KEY: CANARY });
    for (let i = 0; i < 3; i++) expect((await runDist(['update', '--ip', '81.0.2.15'], env)).code).toBe(3);
    let { entries } = await historyJson(env);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ event: 'failed', reason: 'auth', count: 3 });
    const file = readFileSync(join(env.DDEDGE_STATE_DIR!, 'history.json'), 'utf8');
    expect(file).not.toContain(CANARY);
    const fixed = { ...env, DDEDGE_DYNDNS_KEY: sandbox.model.account.dyndnsKey };
    expect((await runDist(['update', '--ip', '81.0.2.15'], fixed)).code).toBe(0);
    ({ entries } = await historyJson(fixed));
    expect(entries.map((e) => e.event)).toEqual(['failed', 'recovered', 'changed']);
    const text = await runDist(['status', '--history'], fixed);
    expect(text.stdout).toMatch(/failed \(3 cycles in a row, last \S+\): /);
    expect(text.stdout + text.stderr).not.toContain(CANARY);
  });

  it('a damaged history is reported by status, set aside by the next cycle, and the history starts again', async () => {
    const env = agentEnv(sandbox);
    const path = join(env.DDEDGE_STATE_DIR!, 'history.json');
    writeFileSync(path, `{"version":1,"entries":[{"host":"${CANARY}"`);
    const status = await runDist(['status', '--history'], env);
    expect(status.code).toBe(0);
    expect(status.stderr).toContain(`${path} is damaged (not valid JSON`);
    expect(status.stderr).not.toContain(CANARY);
    const update = await runDist(['update', '--ip', '81.0.2.15'], env);
    expect(update.code).toBe(0);
    expect(update.stderr).toContain(`set aside as ${path}.damaged`);
    expect(existsSync(`${path}.damaged`)).toBe(true);
    expect((await historyJson(env)).entries).toMatchObject([{ event: 'changed', new: '81.0.2.15' }]);
  });

  it('a history that parses but holds a field that is not what it should be is damage too: said by the field, set aside', async () => {
    const env = agentEnv(sandbox);
    const path = join(env.DDEDGE_STATE_DIR!, 'history.json');
    const entry = { at: 'yesterday', host: 'home.example.com', type: 'A', event: 'changed', new: '81.0.2.9' };
    writeFileSync(path, JSON.stringify({ version: 1, entries: [entry] }));
    const status = await runDist(['status', '--history'], env);
    expect(status.code).toBe(0);
    expect(status.stderr).toContain(`${path} is damaged (entries[0].at is not a time); the history is shown as empty`);
    expect(status.stdout).not.toContain('yesterday');
    const update = await runDist(['update', '--ip', '81.0.2.15'], env);
    expect(update.code).toBe(0);
    expect(update.stderr).toContain(`set aside as ${path}.damaged`);
    expect((await historyJson(env)).entries).toMatchObject([{ event: 'changed', new: '81.0.2.15' }]);
  });

  it('a dry run records nothing', async () => {
    const env = agentEnv(sandbox);
    expect((await runDist(['update', '--ip', '81.0.2.15', '--dry-run'], env)).code).toBe(0);
    expect(existsSync(join(env.DDEDGE_STATE_DIR!, 'history.json'))).toBe(false);
  });
});
