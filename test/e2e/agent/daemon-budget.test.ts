// The daemon with its provider call budget spent: it waits until calls resume (bounded by the
// interval), not an exponential backoff that only repeats the same error every few seconds.
import { expect, it } from 'vitest';
import { agentEnv } from '../../helpers/agent-env.js';
import { startDist, waitForOutput } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();

it('a spent call budget: the next cycle is when calls resume, bounded by the interval, with no backoff', async () => {
  // One call an hour and two hosts: the second host meets the spent budget in the first cycle.
  const env = agentEnv(sandbox, {
    DDEDGE_IP: '81.0.2.15',
    DDEDGE_HOSTS: 'home.example.com,example.com',
    DDEDGE_MAX_CALLS_PER_HOUR: '1',
    DDEDGE_INTERVAL: '2h',
  });
  const daemon = startDist(['daemon'], env);
  const text = await waitForOutput(daemon, 'stderr', (t) => /next cycle in|retrying in/.test(t));
  daemon.kill('SIGTERM');
  const result = await daemon.result;
  expect(result.code).toBe(0);
  const resume = /calls resume at (\S+Z)/.exec(result.stderr)?.[1];
  expect(resume).toBeDefined();
  expect(text).not.toMatch(/retrying in/);
  // The window of a call made now ends 61 minutes on, well within the 2 h interval.
  const planned = /the provider call budget is spent: next cycle in (\d+)s, at (\S+Z)/.exec(result.stderr);
  expect(planned).not.toBeNull();
  expect(Math.abs(Date.parse(planned![2]!) - Date.parse(resume!))).toBeLessThan(2_000);
  expect(Number(planned![1])).toBeGreaterThan(59 * 60);
  expect(Number(planned![1])).toBeLessThan(62 * 60);
  expect(result.stderr.match(/budget of 1 provider calls an hour is spent/g)).toHaveLength(1);
});
