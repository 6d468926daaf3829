// ddedge init in-process, on the paths that end before anything is written (the whole set-up,
// files and terminal included, is test/e2e/init/): no terminal to ask on, answers the loader
// refuses, credentials the provider refuses.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, runMain } from '../../../helpers/cli.js';
import { useSandbox } from '../../../helpers/use-sandbox.js';

const sandbox = useSandbox();

describe('ddedge init, before it writes', () => {
  it('asks for --non-interactive when there is no terminal', async () => {
    const env = baseEnv();
    const run = await runMain(['init'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/standard input is not a terminal.*--non-interactive/);
    expect(existsSync(join(env.HOME!, '.config'))).toBe(false);
  });

  it('refuses answers the loader refuses, and credentials the provider refuses, naming them', async () => {
    const env = baseEnv();
    const noCredentials = await runMain(['init', '--non-interactive', '--hosts', 'home.example.com'], env);
    expect(noCredentials.code).toBe(2);
    expect(noCredentials.stderr).toMatch(/no credentials/);
    const wrong = await runMain(
      ['init', '--non-interactive', '--hosts', 'home.example.com', '--api-url', sandbox.url, '--api-user', 'nobody'],
      { ...env, DDEDGE_API_PASSWORD: 'wrong' },
    );
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/check the API user and password you gave/);
    expect(existsSync(join(env.HOME!, '.config'))).toBe(false);
  });

  it('refuses a value that would not read back as written', async () => {
    const run = await runMain(
      ['init', '--non-interactive', '--hosts', 'home.example.com', '--dyndns-user', "o'brien", '--dyndns-key', 'k'],
      baseEnv(),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/DDEDGE_DYNDNS_USER holds a quote, backslash or line break; nothing was written/);
  });
});
