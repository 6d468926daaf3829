// Installed the way Node users install tools: `npm install -g` from the tarball `npm pack`
// makes and from the checkout, offline (the bundle needs no node_modules at run time, so the
// package declares nothing to download), then run from the prefix's bin under several names.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, readdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, tempDir } from '../../helpers/cli.js';

const root = resolve(import.meta.dirname, '../../..');
const npmCli = process.env.npm_execpath?.endsWith('npm-cli.js') ? process.env.npm_execpath : undefined;
// The npm next to this Node, or npm on PATH; a user config of the machine is not read.
const npm = (args: string[], cwd: string) => {
  const env = {
    ...baseEnv(),
    npm_config_userconfig: join(tempDir(), 'npmrc'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
  return npmCli
    ? execFileSync(process.execPath, [npmCli, ...args], { cwd, env, encoding: 'utf8', stdio: 'pipe' })
    : execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: 'pipe' });
};
const run = (file: string, args: string[]) => spawnSync(file, args, { env: baseEnv(), encoding: 'utf8' });

describe('npm install -g', () => {
  it('from the npm pack tarball puts ddedge on the prefix bin, offline; it runs under a symlink called dd and as a copy', {
    timeout: 60_000,
  }, () => {
    const work = tempDir('ddedge-pack-');
    npm(['pack', '--pack-destination', work, '--ignore-scripts'], root);
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
    expect(tarball).toMatch(/^ddedge-\d+\.\d+\.\d+\.tgz$/);
    const prefix = join(work, 'prefix');
    npm(['install', '-g', '--offline', '--prefix', prefix, join(work, tarball)], work);

    const bin = join(prefix, 'bin', 'ddedge');
    const version = run(bin, ['--version']);
    expect(version.stderr).toBe('');
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(version.status).toBe(0);
    // Nothing was installed beside it: the bundle is all it needs.
    const installed = join(prefix, 'lib', 'node_modules', 'ddedge');
    expect(readdirSync(installed)).not.toContain('node_modules');
    // The code caches travel with the chunks (bootstrap/launcher.ts).
    expect(readdirSync(join(installed, 'dist', 'chunks'))).toEqual(
      expect.arrayContaining(['main.cjs', 'main.cjs.v8cache']),
    );

    const dd = join(work, 'dd');
    symlinkSync(bin, dd);
    expect(run(dd, ['--version']).stdout).toBe(version.stdout);
    // An unknown command through the link is an error, not a silent exit 0.
    const wrong = run(dd, ['no-such-command']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/unknown command "no-such-command"/);

    // A copy of the installed dist/ under another file name.
    const copy = join(work, 'copy');
    cpSync(join(installed, 'dist'), copy, { recursive: true });
    copyFileSync(join(copy, 'ddedge.mjs'), join(copy, 'my-ddns'));
    const copied = spawnSync(process.execPath, [join(copy, 'my-ddns'), '--version'], {
      env: baseEnv(),
      encoding: 'utf8',
    });
    expect(copied.stdout).toBe(version.stdout);
  });

  it('from the checkout links the checkout and puts ddedge on the prefix bin', { timeout: 60_000 }, () => {
    const prefix = join(tempDir('ddedge-link-'), 'prefix');
    npm(['install', '-g', '--offline', '--ignore-scripts', '--prefix', prefix, root], root);
    const bin = join(prefix, 'bin', 'ddedge');
    // The bin is the CommonJS launcher: Node starts no ES module loader for it (docs/performance.md).
    expect(realpathSync(bin)).toBe(join(realpathSync(root), 'dist', 'ddedge.cjs'));
    const version = run(bin, ['--version']);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(version.status).toBe(0);
  });
});
