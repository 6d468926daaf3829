// A fault aimed at an operation the sandbox does not have would never fire, and a test or a
// user's script relying on it would pass for the wrong reason: the sandbox refuses it at start
// (exit 2, one line naming the nearest target), and starts with a target it has.
import { describe, expect, it } from 'vitest';
import { baseEnv, startDist, waitForOutput } from '../../helpers/cli.js';

describe('ddedge sandbox --fault targets', () => {
  it.each([
    ['dydns=502', 'dyndns'],
    ['service/dnslst=502', 'service/dnslist'],
    ['servce/dnslist=reset', 'service/dnslist'],
  ])('refuses %s at start, suggesting %s', async (fault, near) => {
    const child = startDist(['sandbox', '--port', '0', '--dns-port', '0', '--fault', fault], baseEnv());
    // A sandbox that starts with the fault would serve until stopped: stop it and say so.
    const started = await waitForOutput(child, 'stdout', (text) => text.includes('faults:')).then(
      () => true,
      () => false,
    );
    if (started) child.kill('SIGTERM');
    const run = await child.result;
    expect(started, 'the sandbox started with a fault that can never fire').toBe(false);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--fault: "${fault}"`);
    expect(run.stderr).toContain(near);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.each(['dyndns=502', 'service/dnslist=500x1', '*=slow:10', 'tool/hello=huge'])('starts with %s', async (fault) => {
    const child = startDist(['sandbox', '--port', '0', '--dns-port', '0', '--fault', fault], baseEnv());
    try {
      await waitForOutput(child, 'stdout', (text) => text.includes('faults:'));
    } finally {
      child.kill('SIGTERM');
      await child.result;
    }
  });
});
