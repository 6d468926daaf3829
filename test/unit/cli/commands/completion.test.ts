// ddedge completion: a script generated from the commands' declarations and the API table.
import { describe, expect, it } from 'vitest';
import { baseEnv, runMain } from '../../../helpers/cli.js';

describe('ddedge completion', () => {
  it('bash: completes the commands, their flags, the API actions and their parameters', async () => {
    const run = await runMain(['completion', 'bash'], baseEnv());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('complete -o default -F _ddedge ddedge\n');
    expect(run.stdout).toMatch(/compgen -W "[^"]*\bupdate\b[^"]*\bgateway\b[^"]*--version"/);
    expect(run.stdout).toMatch(/ {4}update\) opts="[^"]*--host\b[^"]*--state-dir\b/);
    expect(run.stdout).toMatch(/ {8}service\) COMPREPLY=\( \$\(compgen -W "[^"]*\bdnslist\b/);
    expect(run.stdout).toMatch(
      / {8}service\/dnscreate\) opts="--serviceName --name --type --value --ttl --priority --all /,
    );
    expect(run.stdout).toMatch(/ {6}zone\) COMPREPLY=\( \$\(compgen -W "export plan apply --help"/);
  });

  it('zsh: the same script, after bashcompinit', async () => {
    const bash = await runMain(['completion'], baseEnv());
    const zsh = await runMain(['completion', 'zsh'], baseEnv());
    expect(zsh.code).toBe(0);
    expect(zsh.stdout).toBe(`autoload -U +X bashcompinit && bashcompinit\n${bash.stdout}`);
  });

  it('refuses a shell it does not complete (exit 2)', async () => {
    const run = await runMain(['completion', 'fish'], baseEnv());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"fish" is not a shell ddedge completes');
    expect(run.stdout).toBe('');
  });
});
