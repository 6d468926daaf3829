// ddedge completion: a script generated from the commands' declarations and the API table.
import { describe, expect, it } from 'vitest';
import { main } from '../../../../src/cli/main.js';
import { collectingIo } from '../../../helpers/main-io.js';

describe('ddedge completion', () => {
  it('bash: completes the commands, their flags, the API actions and their parameters', async () => {
    const io = collectingIo();
    expect(await main(['completion', 'bash'], io)).toBe(0);
    expect(io.out).toContain('complete -o default -F _ddedge ddedge\n');
    expect(io.out).toMatch(/compgen -W "[^"]*\bupdate\b[^"]*\bgateway\b[^"]*--version"/);
    expect(io.out).toMatch(/ {4}update\) opts="[^"]*--host\b[^"]*--state-dir\b/);
    expect(io.out).toMatch(/ {8}service\) COMPREPLY=\( \$\(compgen -W "[^"]*\bdnslist\b/);
    expect(io.out).toMatch(/ {8}service\/dnscreate\) opts="--serviceName --name --type --value --ttl --priority --all /);
    expect(io.out).toMatch(/ {6}zone\) COMPREPLY=\( \$\(compgen -W "export plan apply --help"/);
  });

  it('zsh: the same script, after bashcompinit', async () => {
    const bash = collectingIo();
    const zsh = collectingIo();
    await main(['completion'], bash);
    expect(await main(['completion', 'zsh'], zsh)).toBe(0);
    expect(zsh.out).toBe(`autoload -U +X bashcompinit && bashcompinit\n${bash.out}`);
  });

  it('refuses a shell it does not complete (exit 2)', async () => {
    const io = collectingIo();
    expect(await main(['completion', 'fish'], io)).toBe(2);
    expect(io.err).toContain('"fish" is not a shell ddedge completes');
    expect(io.out).toBe('');
  });
});
