// The settings file `ddedge init` writes is read by every command, under the environment and
// any dotenv file, with the trust rules of ./.env; its secrets come from credentials/ beside it.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentWithDotenv } from '../../../src/config/env-sources.js';
import { initSettingsDir } from '../../../src/config/init-settings.js';
import { tempDir } from '../../helpers/cli.js';

const USER = 1000;

/** A home with ~/.config/ddedge/ddedge.env holding `text`, and a working folder without .env. */
function home(text: string, mode = 0o600): { HOME: string; dir: string; cwd: string } {
  const HOME = tempDir('ddedge-home-');
  const dir = join(HOME, '.config', 'ddedge');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'ddedge.env'), text);
  chmodSync(join(dir, 'ddedge.env'), mode);
  return { HOME, dir, cwd: tempDir('ddedge-cwd-') };
}

describe('the settings file of ddedge init', () => {
  it('is /etc/ddedge as root, else under XDG_CONFIG_HOME or ~/.config, and nowhere without a home', () => {
    expect(initSettingsDir({ HOME: '/home/a' }, 0)).toBe('/etc/ddedge');
    expect(initSettingsDir({ HOME: '/home/a' }, USER)).toBe('/home/a/.config/ddedge');
    expect(initSettingsDir({ HOME: '/home/a', XDG_CONFIG_HOME: '/x' }, USER)).toBe('/x/ddedge');
    // A relative XDG_CONFIG_HOME is ignored, as the XDG specification says.
    expect(initSettingsDir({ HOME: '/home/a', XDG_CONFIG_HOME: 'x' }, USER)).toBe('/home/a/.config/ddedge');
    expect(initSettingsDir({}, USER)).toBeUndefined();
  });

  it('fills what the environment and ./.env leave unset, and never overrides them', async () => {
    const { HOME, cwd } = home('DDEDGE_HOSTS=home.example.com\nDDEDGE_TIMEOUT=9s\nDDEDGE_DYNDNS_USER=file-user\n');
    writeFileSync(join(cwd, '.env'), 'DDEDGE_TIMEOUT=5s\n');
    const env = await environmentWithDotenv(
      { HOME, DDEDGE_DYNDNS_USER: 'env-user' },
      undefined,
      cwd,
      undefined,
      undefined,
      USER,
    );
    expect([env.DDEDGE_HOSTS, env.DDEDGE_TIMEOUT, env.DDEDGE_DYNDNS_USER]).toEqual([
      'home.example.com',
      '5s',
      'env-user',
    ]);
  });

  it('hands its credentials/ folder as the credentials directory, unless systemd handed one', async () => {
    const { HOME, dir, cwd } = home('DDEDGE_HOSTS=home.example.com\n');
    mkdirSync(join(dir, 'credentials'));
    const read = (extra: Record<string, string>) =>
      environmentWithDotenv({ HOME, ...extra }, undefined, cwd, undefined, undefined, USER);
    expect((await read({})).CREDENTIALS_DIRECTORY).toBe(join(dir, 'credentials'));
    expect((await read({ CREDENTIALS_DIRECTORY: '/run/credentials/x' })).CREDENTIALS_DIRECTORY).toBe(
      '/run/credentials/x',
    );
  });

  it('is not read, and says why, when others could have written it', async () => {
    const { HOME, cwd } = home('DDEDGE_HOSTS=evil.example.com\n', 0o666);
    const warnings: string[] = [];
    const env = await environmentWithDotenv({ HOME }, undefined, cwd, undefined, (m) => warnings.push(m), USER);
    expect(env.DDEDGE_HOSTS).toBeUndefined();
    expect(warnings.join('\n')).toMatch(
      /settings file .*ddedge\.env can be written by its group or other users .*not read/,
    );
  });

  it('changes nothing when there is none', async () => {
    const HOME = tempDir('ddedge-home-');
    const env = await environmentWithDotenv({ HOME }, undefined, tempDir('ddedge-cwd-'), undefined, undefined, USER);
    expect(env).toEqual({ HOME });
  });
});
