// `ddedge completion bash` run in a real bash, and the man-style --help.
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../../src/config/settings.js';
import { baseEnv, runDist } from '../../helpers/cli.js';
import { complete } from '../../helpers/completion.js';

describe('ddedge completion', () => {
  it('completes commands, flags, allowed values and API operations in bash', async () => {
    expect(await complete('ddedge', 'up')).toEqual(['update']);
    expect(await complete('ddedge', 'update', '--dry')).toEqual(['--dry-run']);
    expect(await complete('ddedge', 'daemon', '--log-level', '')).toEqual(['error', 'warn', 'info', 'debug']);
    expect(await complete('ddedge', 'update', '--via', 'a')).toEqual(['auto', 'api']);
    expect(await complete('ddedge', 'api', 'ss')).toEqual(['ssl']);
    expect(await complete('ddedge', 'api', 'service', 'dnsc')).toEqual(['dnscreate']);
  });
  it("completes its own arguments, api help and each operation's parameters", async () => {
    expect(await complete('ddedge', 'completion', '')).toEqual(['bash', 'zsh']);
    expect(await complete('ddedge', 'co')).toEqual(['completion']);
    expect(await complete('ddedge', 'api', '--h')).toEqual(['--help']);
    expect(await complete('ddedge', 'api', 'service', 'dnscreate', '--ty')).toEqual(['--type']);
    expect(await complete('ddedge', 'api', 'ssl', 'csrdecode', '--csr')).toEqual(['--csrData']);
    expect(await complete('ddedge', 'update', '--dot')).toEqual(['--dotenv']);
  });
  it('offers zsh through bashcompinit and refuses other shells', async () => {
    expect((await runDist(['completion', 'zsh'], baseEnv())).stdout).toMatch(
      /^autoload -U \+X bashcompinit && bashcompinit\n/,
    );
    expect(await runDist(['completion', 'fish'], baseEnv())).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('use bash or zsh'),
    });
  });
});

describe('--help', () => {
  it('ddedge --help lists every variable, its flag and every exit code, like a man page', async () => {
    const { stdout } = await runDist(['--help'], baseEnv());
    for (const setting of Object.values(SETTINGS)) {
      expect(stdout).toContain(setting.env);
      expect(stdout).toContain(`--${setting.flag}`);
    }
    for (let code = 0; code <= 7; code++) expect(stdout).toMatch(new RegExp(`^  ${code}  `, 'm'));
  });
});
