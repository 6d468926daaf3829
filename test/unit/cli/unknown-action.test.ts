// A word that is no action of zone, gateway, acme or notify is exit 2 naming the actions. What
// was typed is quoted only when it looks like a mistyped action: a URL given to `notify` without
// `test` is a secret, a control character would reach the terminal, a huge word the log.
import { describe, expect, it } from 'vitest';
import { baseEnv, CANARY, runMain } from '../../helpers/cli.js';

describe('an unknown action', () => {
  it('a near miss is named, with the action it is nearest to', async () => {
    const run = await runMain(['acme', 'presnt'], baseEnv());
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('unknown action "presnt"');
    expect(run.stderr).toContain('did you mean present?');
  });

  it('a notification URL given without `test` is refused without being shown', async () => {
    const run = await runMain(['notify', `https://hooks.slack.com/services/T0/B0/${CANARY}`], baseEnv());
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('give one of test');
    expect(run.stderr).not.toContain(CANARY);
  });

  it('control characters and a huge word do not reach the output', async () => {
    const escaped = await runMain(['zone', '\x1b[31mred\nddedge: forged line'], baseEnv());
    expect(escaped.code, escaped.stderr).toBe(2);
    expect(escaped.stderr).not.toContain('\x1b');
    expect(escaped.stderr.trimEnd().split('\n')).toHaveLength(1);
    const huge = await runMain(['gateway', 'a'.repeat(100_000)], baseEnv());
    expect(huge.code, huge.stderr).toBe(2);
    expect(huge.stderr.length).toBeLessThan(1000);
  });
});
