// --on-change hooks that misbehave: they start background processes, detach grandchildren
// that keep our pipes open, or print things worth seeing at debug level.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentEnv } from '../../helpers/agent-env.js';
import { CANARY, HANG_BOUND_MS, runDist, tempDir } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();
const leftovers: number[] = [];
afterEach(async () => {
  // Stop what a hook under test may have left running, by its pid only.
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** Alive and not a zombie (an orphan's new parent may be slow to reap it, or never reap it). */
const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return !/^\d+ \(.*\) Z/.test(stat);
};
const pidIn = (file: string) => Number(readFileSync(file, 'utf8').trim());

describe('--on-change in its own process group', () => {
  it('a detached grandchild holding our pipes (setsid) does not keep ddedge running', async () => {
    const pidFile = join(tempDir(), 'pid');
    const hook = `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 777' & sleep 0.2; echo started`;
    // Waiting for the grandchild would last until the 10 min hook timeout; a start of the built
    // file took seconds on a loaded machine, so the bound is that of a hang, not a few seconds.
    const started = Date.now();
    const result = await runDist(
      ['update', '--ip', '81.0.2.15', '--on-change', hook, '--on-change-timeout', '10m'],
      agentEnv(sandbox),
    );
    leftovers.push(pidIn(pidFile));
    expect(result.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(HANG_BOUND_MS);
    expect(result.stderr).toMatch(/info: --on-change ran for home\.example\.com A/);
  });

  it('a background process left in the group (`sleep 777 &`) is stopped when the hook ends', async () => {
    const pidFile = join(tempDir(), 'pid');
    const hook = `sleep 777 >/dev/null 2>&1 & echo $! > ${pidFile}`;
    const result = await runDist(['update', '--ip', '81.0.2.15', '--on-change', hook], agentEnv(sandbox));
    const pid = pidIn(pidFile);
    leftovers.push(pid);
    expect(result.code).toBe(0);
    // Signalled before the agent exited; its exit is the kernel's to finish.
    await vi.waitFor(() => expect(isRunning(pid)).toBe(false), { timeout: HANG_BOUND_MS, interval: 20 });
  });

  it('at the timeout the whole group is stopped, and the log says so truthfully', async () => {
    const pidFile = join(tempDir(), 'pid');
    const hook = `sleep 777 & echo $! > ${pidFile}; sleep 777`;
    const started = Date.now();
    const result = await runDist(
      ['update', '--ip', '81.0.2.15', '--on-change', hook, '--on-change-timeout', '500ms'],
      agentEnv(sandbox),
    );
    const pid = pidIn(pidFile);
    leftovers.push(pid);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warn: --on-change for home\.example\.com A was stopped after 500 ms/);
    // Far below the group's 777 s sleeps, far above a start of the built file on a loaded machine.
    expect(Date.now() - started).toBeLessThan(HANG_BOUND_MS);
    expect(isRunning(pid)).toBe(false);
  });
});

describe("the hook's own output", () => {
  it('is shown at --log-level debug, redacted', async () => {
    const keyFile = join(tempDir(), 'key');
    writeFileSync(keyFile, CANARY);
    const env = agentEnv(sandbox, { DDEDGE_DYNDNS_KEY: undefined, DDEDGE_DYNDNS_KEY_FILE: keyFile });
    sandbox.model.account.dyndnsKey = CANARY;
    const hook = `echo "reloaded peers for $DDEDGE_HOST"; echo "second line"; cat ${keyFile}`;
    const result = await runDist(['update', '--ip', '81.0.2.15', '--on-change', hook, '--log-level', 'debug'], env);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /debug: --on-change for home\.example\.com A output .*reloaded peers for home\.example\.com\\nsecond line\\n\*\*\*/,
    );
    expect(result.stderr).not.toContain(CANARY);
  });
  it('is not shown at info when the hook succeeds', async () => {
    const result = await runDist(
      ['update', '--ip', '81.0.2.15', '--on-change', 'echo quiet-output'],
      agentEnv(sandbox),
    );
    expect(result.stderr).not.toContain('quiet-output');
  });
});
