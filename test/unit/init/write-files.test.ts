// init's files: secrets 0600 in a 0700 credentials/ folder, the settings file written last, an
// existing file replaced only with --force, and nothing left behind by a write that failed.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ddedgeGroupId, writeInitFiles } from '../../../src/init/write-files.js';
import { tempDir } from '../../helpers/cli.js';

const files = (dir: string) => ({
  dir,
  settingsText: 'DDEDGE_HOSTS=home.example.com\n',
  secrets: { 'dyndns-key': 'key-1', 'api-password': 'pw-1' },
});
const mode = (path: string) => statSync(path).mode & 0o777;
// A user other than root (the tests may run as root, whose files a user trusts as well).
const USER = 1000;

describe('writing what init asked', () => {
  it("writes each secret 0600 in a 0700 folder and the settings file 0600, in the user's own folder", () => {
    const dir = join(tempDir(), 'ddedge');
    const written = writeInitFiles(files(dir), { force: false, uid: USER });
    expect(written).toEqual([
      join(dir, 'credentials', 'dyndns-key'),
      join(dir, 'credentials', 'api-password'),
      join(dir, 'ddedge.env'),
    ]);
    expect([mode(dir), mode(join(dir, 'credentials')), mode(join(dir, 'ddedge.env'))]).toEqual([0o700, 0o700, 0o600]);
    expect(mode(join(dir, 'credentials', 'dyndns-key'))).toBe(0o600);
    expect(readFileSync(join(dir, 'credentials', 'api-password'), 'utf8')).toBe('pw-1\n');
  });

  it('as root, lets the ddedge group read the settings file, never the secrets', () => {
    const dir = join(tempDir(), 'ddedge');
    writeInitFiles(files(dir), { force: false, uid: 0, groupId: 4242 });
    expect([mode(join(dir, 'ddedge.env')), statSync(join(dir, 'ddedge.env')).gid]).toEqual([0o640, 4242]);
    expect(mode(join(dir, 'credentials', 'dyndns-key'))).toBe(0o600);
    expect(statSync(join(dir, 'credentials', 'dyndns-key')).gid).not.toBe(4242);
  });

  it('replaces nothing without --force, naming what exists; with it, replaces', () => {
    const dir = join(tempDir(), 'ddedge');
    mkdirSync(join(dir, 'credentials'), { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'credentials', 'dyndns-key'), 'old\n', { mode: 0o600 });
    expect(() => writeInitFiles(files(dir), { force: false, uid: USER })).toThrow(
      /credentials\/dyndns-key already exists; nothing was written \(--force replaces it\)/,
    );
    expect(existsSync(join(dir, 'ddedge.env'))).toBe(false);
    writeInitFiles(files(dir), { force: true, uid: USER });
    expect(readFileSync(join(dir, 'credentials', 'dyndns-key'), 'utf8')).toBe('key-1\n');
  });

  it('removes the secrets it wrote when the settings file cannot be written', () => {
    const dir = join(tempDir(), 'ddedge');
    // A folder where the settings file goes: the rename over it fails.
    mkdirSync(join(dir, 'ddedge.env', 'x'), { recursive: true });
    expect(() => writeInitFiles(files(dir), { force: true, uid: USER })).toThrow();
    expect(existsSync(join(dir, 'credentials', 'dyndns-key'))).toBe(false);
    expect(existsSync(join(dir, 'credentials', 'api-password'))).toBe(false);
  });

  it('refuses a folder others can write: they could swap a secret in', () => {
    const dir = join(tempDir(), 'ddedge');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    expect(() => writeInitFiles(files(dir), { force: false, uid: USER })).toThrow(
      /can be written by someone other than you and root .*mode 0777.*nothing was written/,
    );
    expect(existsSync(join(dir, 'credentials'))).toBe(false);
  });

  it("finds the ddedge group's id in the group file, and none where there is no such group", () => {
    const groups = join(tempDir(), 'group');
    writeFileSync(groups, 'root:x:0:\nddedgex:x:5:\nddedge:x:998:\n');
    expect(ddedgeGroupId(groups)).toBe(998);
    writeFileSync(groups, 'root:x:0:\n');
    expect(ddedgeGroupId(groups)).toBeUndefined();
    expect(ddedgeGroupId(join(tempDir(), 'missing'))).toBeUndefined();
  });
});

describe('a settings file that sets nothing', () => {
  it("is replaced without --force (the Debian package's, all comments), unlike one that sets something", () => {
    const dir = join(tempDir(), 'ddedge');
    mkdirSync(dir);
    writeFileSync(join(dir, 'ddedge.env'), '# settings\n\n# DDEDGE_HOSTS=home.example.com\n');
    writeInitFiles({ ...files(dir), secrets: {} }, { force: false, uid: USER });
    expect(readFileSync(join(dir, 'ddedge.env'), 'utf8')).toBe('DDEDGE_HOSTS=home.example.com\n');
    expect(() => writeInitFiles({ ...files(dir), secrets: {} }, { force: false, uid: USER })).toThrow(/already exists/);
  });
});
