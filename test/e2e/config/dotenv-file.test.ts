// --env-file and --dotenv as a user runs them: Node 20 reads --env-file itself, even after
// the script name, and exits 9 with its own message on a missing file. ddedge answers itself.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, DIST, runDist, tempDir, type RunResult } from '../../helpers/cli.js';

/** Runs the built file as a program (`ddedge …` on PATH), through its own first line. */
function runAsProgram(args: string[], env: Record<string, string>, cwd = tempDir()): Promise<RunResult> {
  const child = spawn(DIST, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('the dotenv file flag', () => {
  it('ddedge … --env-file missing.env: ddedge says so, exit 2 (not Node, exit 9)', async () => {
    const run = await runAsProgram(['status', '--env-file', 'missing.env'], baseEnv());
    expect(run.stderr).toBe('ddedge: --env-file: cannot read "missing.env": no such file\n');
    expect(run.code).toBe(2);
  });

  it('node ddedge.mjs … --dotenv missing.env: the spelling Node leaves alone, exit 2', async () => {
    const run = await runDist(['status', '--dotenv', 'missing.env'], baseEnv());
    expect(run).toMatchObject({ code: 2, stderr: 'ddedge: --dotenv: cannot read "missing.env": no such file\n' });
  });

  it.each([
    ['--env-file', true],
    ['--dotenv', true],
    ['--dotenv', false],
  ])('%s FILE is read (as a program: %s), never over a set variable', async (flag, asProgram) => {
    const dir = tempDir();
    const stateDir = tempDir('ddedge-state-');
    writeFileSync(join(dir, 'agent.env'), `DDEDGE_STATE_DIR=${stateDir}\nDDEDGE_LOG_FORMAT=yaml\n`);
    const args = ['status', '--json', flag, join(dir, 'agent.env')];
    const env = baseEnv({ DDEDGE_LOG_FORMAT: 'json' });
    const run = asProgram ? await runAsProgram(args, env) : await runDist(args, env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ stateDir });
  });

  it('both spellings at once are a usage error', async () => {
    const run = await runAsProgram(['status', '--dotenv', 'a.env', '--env-file', 'b.env'], baseEnv());
    expect(run).toMatchObject({ code: 2, stderr: expect.stringContaining('give one of --env-file or --dotenv') });
  });
});
