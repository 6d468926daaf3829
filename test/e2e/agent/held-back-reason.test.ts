// A record the provider refused is held back from the next runs (per-record backoff). The run
// that holds it back says why on stderr in text mode, as --json says it in the host's message:
// a bare "failed" after a wrong key or a typo'd host leaves the user nothing to go on.
import { describe, expect, it } from 'vitest';
import { agentEnv } from '../../helpers/agent-env.js';
import { runDist } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });

describe('a second `ddedge update` of a record the provider refused', () => {
  it.each([
    ['a wrong key', { DDEDGE_DYNDNS_KEY: 'not-the-key' }, 'home.example.com', 3],
    ["a typo'd host", { DDEDGE_HOSTS: 'hmoe.example.com' }, 'hmoe.example.com', 7],
  ])('after %s: prints why it was not sent, with no flag', async (_what, extra, host, code) => {
    const env = agentEnv(sandbox, extra);
    const first = await runDist(['update', '--ip', '81.0.2.16'], env);
    expect(first.code).toBe(code);
    const calls = sandbox.calls.get('dyndns');
    const second = await runDist(['update', '--ip', '81.0.2.16'], env);
    expect(second.code).toBe(code);
    expect(sandbox.calls.get('dyndns')).toBe(calls);
    expect(second.stdout).toBe(`${host} A 81.0.2.16 failed\n`);
    expect(second.stderr).toMatch(
      new RegExp(
        `${host.replaceAll('.', '\\.')} A: not sent: the provider refused it 1 time \\(.+\\); next attempt after \\S+Z \\(--force tries now\\)`,
      ),
    );
    expect(second.stderr).not.toContain('not-the-key');
  });
});
