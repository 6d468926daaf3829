// The test helpers that the end-to-end tests lean on for load-proof waits and in-process runs:
// a wait for output ends with the process, and each in-process run starts from fresh modules.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { baseEnv, runMain, waitForOutput } from '../../helpers/cli.js';

describe('waitForOutput', () => {
  it('resolves with the text once the predicate holds', async () => {
    const child = spawn(process.execPath, ['-e', 'console.log("ready"); setTimeout(() => {}, 200)'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await expect(waitForOutput(child, 'stdout', (t) => t.includes('ready'))).resolves.toContain('ready');
  });

  it('fails as soon as the process ends first, with what was printed (not at its hang bound, with a timeout)', async () => {
    const child = spawn(process.execPath, ['-e', 'console.log("something else")'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await expect(waitForOutput(child, 'stdout', (t) => t.includes('never printed'))).rejects.toThrow(
      /the process ended \(exit 0\) before stdout showed what was awaited; got: something else/,
    );
  });
});

describe('runMain', () => {
  it('runs each call with fresh modules, as a new process: a secret registered before is not masked by the next run', async () => {
    expect(await runMain(['--version'], baseEnv())).toMatchObject({ code: 0, stdout: '0.0.0-test\n' });
    const before = await import('../../../src/lib/redact.js');
    before.registerSecret('zq-helper-secret-1');
    expect(before.redact('zq-helper-secret-1')).not.toContain('zq-helper-secret-1');
    await runMain(['--version'], baseEnv());
    const after = await import('../../../src/lib/redact.js');
    expect(after).not.toBe(before);
    expect(after.redact('zq-helper-secret-1')).toBe('zq-helper-secret-1');
  });
});
