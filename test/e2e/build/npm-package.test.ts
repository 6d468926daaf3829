// The npm package as `npm pack` makes it, in a copy of the checkout where the other artefacts
// were built first (the single executables in dist/bin/, the container's files in
// dist/container/, the Debian package in dist/; faked here, one of them large): `npm run build`
// keeps them and says so, and the tarball still holds exactly the program, the SDK with its
// types, the units, the ACME hooks and the manual (README.md, docs/*.md), at about 1 MB, whatever else dist/ holds.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, tempDir } from '../../helpers/cli.js';

const root = resolve(import.meta.dirname, '../../..');
const VERSION = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const npmCli = process.env.npm_execpath?.endsWith('npm-cli.js') ? process.env.npm_execpath : undefined;
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

/** What the package may hold: the program and its chunks, the SDK and its types, units, hooks, the manual. */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^docs\/[a-z0-9-]+\.md$/,
  /^dist\/(ddedge|sdk)\.mjs$/,
  /^dist\/ddedge\.cjs$/,
  /^dist\/sdk\.mjs\.(map|LEGAL\.txt)$/,
  /^dist\/chunks\/[^/]+\.(cjs|cjs\.v8cache|LEGAL\.txt)$/,
  /^dist\/types\/.+\.d\.ts$/,
  /^systemd\/[^/]+\.(service|timer)$/,
  /^bin\/ddedge-acme$/,
  /^dnsapi\/dns_ddedge\.sh$/,
];

describe('the npm package', () => {
  it('after the other artefacts were built, `npm run build` keeps them and says so, and `npm pack` leaves them out (about 1 MB)', {
    timeout: 180_000,
  }, () => {
    const copy = join(tempDir('ddedge-npm-package-'), 'ddedge');
    cpSync(root, copy, {
      recursive: true,
      filter: (path) => !/^\/?(node_modules|dist|\.git)$/.test(path.slice(root.length + 1)),
    });
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
    // What build:binaries, build:container and build:deb leave in dist/: a large executable.
    const fakes = [
      'dist/bin/ddedge-linux-x64',
      'dist/bin/SHA256SUMS',
      'dist/container/rootfs/usr/local/bin/ddedge',
      `dist/ddedge_${VERSION}_all.deb`,
      `dist/ddedge_${VERSION}_all.deb.sha256`,
    ];
    for (const fake of fakes) {
      mkdirSync(join(copy, fake, '..'), { recursive: true });
      writeFileSync(
        join(copy, fake),
        fake === 'dist/bin/ddedge-linux-x64' ? randomBytes(20 * 1024 * 1024) : 'built earlier\n',
      );
    }

    const built = execFileSync(process.execPath, ['build/build.mjs'], {
      cwd: copy,
      env: baseEnv(),
      encoding: 'utf8',
      stdio: 'pipe',
    });
    for (const fake of fakes) expect(existsSync(join(copy, fake)), fake).toBe(true);
    expect(built).toMatch(
      /left as they were: dist\/bin\/, dist\/container\/, dist\/ddedge_[\d.]+_all\.deb, dist\/ddedge_[\d.]+_all\.deb\.sha256/,
    );

    const [pack] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], copy)) as {
      size: number;
      unpackedSize: number;
      files: { path: string }[];
    }[];
    const paths = pack!.files.map((f) => f.path);
    expect(paths.filter((path) => !ALLOWED.some((pattern) => pattern.test(path)))).toEqual([]);
    for (const needed of [
      'dist/ddedge.mjs',
      'dist/ddedge.cjs',
      'dist/chunks/main.cjs',
      'dist/sdk.mjs',
      'dist/types/sdk/index.d.ts',
      'bin/ddedge-acme',
      'dnsapi/dns_ddedge.sh',
      'systemd/ddedge.timer',
      'README.md',
      'docs/agent.md',
      'docs/running.md',
    ])
      expect(paths).toContain(needed);
    // The tarball (compressed) and what it unpacks to: about 1 MB and 4 MB today.
    expect(pack!.size).toBeLessThan(2 * 1024 * 1024);
    expect(pack!.unpackedSize).toBeLessThan(8 * 1024 * 1024);
  });
});
