// The Debian package (packaging/deb.sh): what it holds, lintian and systemd-analyze on it, and
// its life on a system: installed, its timer's service run once against the sandbox, upgraded
// (installed again over itself: prerm upgrade, then postinst configure) and purged. It is
// installed into a folder of the test's, not into this machine: dpkg --root with
// --force-script-chrootless runs the maintainer scripts here with DPKG_ROOT set, which they
// honour. Only the nodejs package's record is copied into that root's dpkg database, for the
// dependency.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { artefact, ROOT, run, sandbox } from './helpers.js';
import { requireTool } from '../helpers/programs.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const DEB = join(ROOT, 'dist', `ddedge_${VERSION}_all.deb`);
const HOW = 'npm run build:deb';
const hasDeb = artefact(DEB, HOW) && requireTool('dpkg-deb', 'dpkg');
const hasLintian = hasDeb && requireTool('lintian', 'lintian');
const hasAnalyze = hasDeb && requireTool('systemd-analyze', 'systemd');
const asRoot = process.getuid?.() === 0;

const dpkgDeb = (...args: string[]) => execFileSync('dpkg-deb', args, { encoding: 'utf8' });

/** A root folder with a dpkg database that knows this machine's nodejs package. */
function emptyRoot(): string {
  const root = tempDir('ddedge-deb-root-');
  // The ddedge user must reach the program inside it (mkdtemp makes 0700).
  chmodSync(root, 0o755);
  for (const dir of ['var/lib/dpkg/info', 'var/lib/dpkg/updates', 'var/lib/dpkg/triggers', 'etc'])
    mkdirSync(join(root, dir), { recursive: true });
  const status = readFileSync('/var/lib/dpkg/status', 'utf8')
    .split('\n\n')
    .find((stanza) => /^Package: nodejs$/m.test(stanza));
  if (!status) throw new Error("this machine's dpkg knows no nodejs package, which ddedge's depends on");
  writeFileSync(join(root, 'var/lib/dpkg/status'), `${status.trim()}\n\n`);
  writeFileSync(join(root, 'var/lib/dpkg/available'), '');
  writeFileSync(join(root, 'var/lib/dpkg/info/nodejs.list'), '');
  for (const file of ['passwd', 'group']) copyFileSync(join('/etc', file), join(root, 'etc', file));
  return root;
}

const dpkg = (root: string, ...args: string[]) =>
  spawnSync('dpkg', [`--root=${root}`, '--force-script-chrootless', ...args], { encoding: 'utf8' });
const entry = (file: string, name: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .find((line) => line.startsWith(`${name}:`))
    ?.split(':');

describe.skipIf(!hasDeb)('the Debian package', () => {
  it('is ddedge, for every architecture, on Node.js 20.18 or newer, with its SHA-256 sum', () => {
    const field = (name: string) => dpkgDeb('--field', DEB, name).trim();
    expect(field('Package')).toBe('ddedge');
    expect(field('Version')).toBe(VERSION);
    expect(field('Architecture')).toBe('all');
    expect(field('Depends')).toBe('nodejs (>= 20.18)');
    const [sum, name] = readFileSync(`${DEB}.sha256`, 'utf8').trim().split(/\s+/);
    expect(name).toBe(`ddedge_${VERSION}_all.deb`);
    expect(execFileSync('sha256sum', [DEB], { encoding: 'utf8' }).split(' ')[0]).toBe(sum);
  });

  it('holds the program, the units in /lib/systemd/system, the settings as a 0640 conffile, the completion and the sysusers entry', () => {
    const listing = dpkgDeb('--contents', DEB);
    const line = (path: string) =>
      listing.split('\n').find((l) => l.endsWith(` ./${path}`) || l.includes(` ./${path} -> `));
    for (const unit of ['ddedge.service', 'ddedge.timer', 'ddedge-daemon.service', 'ddedge-gateway.service'])
      expect(line(`lib/systemd/system/${unit}`), unit).toBeDefined();
    expect(line('etc/ddedge/ddedge.env')).toMatch(/^-rw-r----- root\/root /);
    expect(line('usr/bin/ddedge')).toMatch(/-> \.\.\/lib\/ddedge\/dist\/ddedge\.cjs$/);
    expect(line('usr/lib/ddedge/dist/chunks/main.cjs')).toBeDefined();
    // The build's code cache is its own Node's: the postinst makes the installed Node's.
    expect(listing).not.toContain('.v8cache');
    expect(line('usr/share/bash-completion/completions/ddedge')).toBeDefined();
    expect(line('usr/lib/sysusers.d/ddedge.conf')).toBeDefined();
    // Purging keeps /var/lib/ddedge; the package says so where Debian's users look.
    expect(line('usr/share/doc/ddedge/README.Debian')).toBeDefined();
    // The manual: the front page and every page it links to, as README.md.gz says.
    expect(line('usr/share/doc/ddedge/README.md.gz')).toBeDefined();
    for (const page of readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')))
      expect(line(`usr/share/doc/ddedge/docs/${page}.gz`), page).toBeDefined();
    const control = tempDir('ddedge-deb-control-');
    execFileSync('dpkg-deb', ['--control', DEB, control]);
    expect(readFileSync(join(control, 'conffiles'), 'utf8')).toBe('/etc/ddedge/ddedge.env\n');
  });

  it("holds acme.sh's hook, dns_ddedge.sh, in /usr/share/ddedge/dnsapi/, as the acme.sh section of docs/certificates.md says", () => {
    const tree = tempDir('ddedge-deb-tree-');
    execFileSync('dpkg-deb', ['--extract', DEB, tree]);
    const hook = join(tree, 'usr/share/ddedge/dnsapi/dns_ddedge.sh');
    expect(readFileSync(hook, 'utf8')).toBe(readFileSync(join(ROOT, 'dnsapi/dns_ddedge.sh'), 'utf8'));
    expect(statSync(hook).mode & 0o777).toBe(0o644);
    const acmeSh = /^## acme\.sh\n([\s\S]*?)\n## /m.exec(readFileSync(join(ROOT, 'docs/certificates.md'), 'utf8'))![1]!;
    expect(acmeSh).toContain('cp /usr/share/ddedge/dnsapi/dns_ddedge.sh ~/.acme.sh/dnsapi/');
  });

  it.skipIf(!hasLintian)('passes lintian with no error', () => {
    const lint = spawnSync('lintian', ['--fail-on', 'error', DEB], { encoding: 'utf8' });
    expect(lint.stdout).not.toMatch(/^E: /m);
    expect(lint.status, lint.stdout + lint.stderr).toBe(0);
  });

  it.skipIf(!hasAnalyze)('holds units systemd-analyze verify accepts', () => {
    const tree = tempDir('ddedge-deb-tree-');
    execFileSync('dpkg-deb', ['--extract', DEB, tree]);
    for (const unit of ['ddedge.service', 'ddedge.timer', 'ddedge-daemon.service', 'ddedge-gateway.service']) {
      const verify = spawnSync('systemd-analyze', ['verify', join(tree, 'lib/systemd/system', unit)], {
        encoding: 'utf8',
      });
      expect([verify.status, verify.stderr], unit).toEqual([0, '']);
    }
  });

  it.skipIf(!asRoot)(
    'installs, runs its timer service once against the sandbox, upgrades, and purges cleanly keeping /var/lib/ddedge',
    { timeout: 300_000 },
    async () => {
      const root = emptyRoot();
      const install = dpkg(root, '--install', DEB);
      expect(install.status, install.stdout + install.stderr).toBe(0);

      // The ddedge system user and group, and the settings readable by that group only.
      const user = entry(join(root, 'etc/passwd'), 'ddedge')!;
      const group = entry(join(root, 'etc/group'), 'ddedge')!;
      const [uid, gid] = [Number(user[2]), Number(group[2])];
      expect(uid).toBeGreaterThan(0);
      expect(uid).toBeLessThan(1000);
      expect(user[6]).toBe('/usr/sbin/nologin');
      const env = join(root, 'etc/ddedge/ddedge.env');
      expect(statSync(env).mode & 0o777).toBe(0o640);
      expect([statSync(env).uid, statSync(env).gid]).toEqual([0, gid]);
      expect(statSync(join(root, 'etc/ddedge/credentials')).mode & 0o777).toBe(0o700);
      // The code cache, made by the Node.js that runs ddedge (the first on PATH).
      // biome-ignore lint/suspicious/noTemplateCurlyInString: node -p evaluates the template
      const node = execFileSync('node', ['-p', '`${process.version} ${process.arch}`'], { encoding: 'utf8' }).trim();
      const chunks = join(root, 'usr/lib/ddedge/dist/chunks');
      expect(readdirSync(chunks)).toContain('main.cjs.v8cache');
      expect(readFileSync(join(chunks, 'main.cjs.v8cache')).subarray(0, node.length).toString()).toBe(node);

      const ddedge = join(root, 'usr/bin/ddedge');
      expect((await run([ddedge, '--version'], { PATH: process.env.PATH! })).stdout).toBe(`${VERSION}\n`);

      // The timer's service, run as systemd runs it: ExecStart with its EnvironmentFile, the
      // credentials folder, a state and a cache folder, as the ddedge user.
      const box = await sandbox([ddedge], { PATH: process.env.PATH!, HOME: tempDir() });
      try {
        const service = readFileSync(join(root, 'lib/systemd/system/ddedge.service'), 'utf8');
        const execStart = /^ExecStart=(.*)$/m.exec(service)![1]!.split(' ');
        expect(execStart).toEqual(['/usr/bin/env', 'ddedge', 'update']);
        expect(service).toMatch(/^LoadCredential=ddedge:\/etc\/ddedge\/credentials$/m);
        writeFileSync(
          env,
          `${readFileSync(env, 'utf8')}DDEDGE_HOSTS=home.example.com\nDDEDGE_DYNDNS_USER=${box.dyndnsUser}\nDDEDGE_DYNDNS_URL=${box.dyndnsUrl}\nDDEDGE_IP=81.0.2.15\n`,
        );
        writeFileSync(join(root, 'etc/ddedge/credentials/dyndns-key'), box.dyndnsKey, { mode: 0o600 });
        const settings = Object.fromEntries(
          readFileSync(env, 'utf8')
            .split('\n')
            .filter((l) => /^[A-Z_]+=/.test(l))
            .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
        );
        // systemd's copies: credentials readable by the service only, named ddedge_<file>.
        const runtime = tempDir('ddedge-deb-run-');
        chmodSync(runtime, 0o755);
        const credentials = join(runtime, 'credentials');
        mkdirSync(credentials, { mode: 0o500 });
        copyFileSync(join(root, 'etc/ddedge/credentials/dyndns-key'), join(credentials, 'ddedge_dyndns-key'));
        const state = join(root, 'var/lib/ddedge');
        const cache = join(root, 'var/cache/ddedge');
        for (const dir of [state, cache]) {
          mkdirSync(dir, { recursive: true, mode: 0o700 });
          chownSync(dir, uid, gid);
        }
        chownSync(join(credentials, 'ddedge_dyndns-key'), uid, gid);
        chownSync(credentials, uid, gid);
        const serviceEnv = {
          ...settings,
          PATH: `${join(root, 'usr/bin')}:${process.env.PATH}`,
          CREDENTIALS_DIRECTORY: credentials,
          STATE_DIRECTORY: state,
          CACHE_DIRECTORY: cache,
        };
        const setpriv = ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--'];
        const first = await run([...setpriv, ...execStart], serviceEnv);
        expect([first.code, first.stdout], first.stderr).toEqual([0, 'home.example.com A 81.0.2.15 updated\n']);
        const second = await run([...setpriv, ...execStart], serviceEnv);
        expect([second.code, second.stdout], second.stderr).toEqual([0, 'home.example.com A 81.0.2.15 unchanged\n']);
        expect(readdirSync(state)).toContain('state.json');
        // The installed cache fits: the service made none of its own.
        expect(readdirSync(cache)).toEqual([]);
      } finally {
        await box.stop();
      }

      // Upgrade: the settings as the administrator left them, the cache made again.
      const edited = readFileSync(env, 'utf8');
      const again = dpkg(root, '--install', DEB);
      expect(again.status, again.stdout + again.stderr).toBe(0);
      expect(readFileSync(env, 'utf8')).toBe(edited);
      expect([statSync(env).mode & 0o777, statSync(env).gid]).toEqual([0o640, gid]);
      expect(readdirSync(chunks)).toContain('main.cjs.v8cache');

      // Purge: no file of ddedge's left but the administrator's secret and the data ddedge kept
      // for them (state, address history, zone backups, the gateway's DHCID records and journal), which the purge
      // names, as README.Debian does.
      expect(readFileSync(join(root, 'usr/share/doc/ddedge/README.Debian'), 'utf8')).toMatch(
        /purg(e|ing)[\s\S]*keeps? \/var\/lib\/ddedge/,
      );
      const gatewayData = join(root, 'var/lib/ddedge/gateway/dhcid.json');
      mkdirSync(join(gatewayData, '..'), { recursive: true });
      writeFileSync(gatewayData, '{}\n');
      const purge = dpkg(root, '--purge', 'ddedge');
      expect(purge.status, purge.stdout + purge.stderr).toBe(0);
      for (const gone of [
        'usr/lib/ddedge',
        'usr/bin/ddedge',
        'lib/systemd/system/ddedge.service',
        'etc/ddedge/ddedge.env',
        'var/cache/ddedge',
      ])
        expect(existsSync(join(root, gone)), gone).toBe(false);
      expect(readdirSync(join(root, 'etc/ddedge/credentials'))).toEqual(['dyndns-key']);
      expect(readdirSync(join(root, 'var/lib/ddedge')).sort()).toEqual(['gateway', 'history.json', 'state.json']);
      expect(readFileSync(gatewayData, 'utf8')).toBe('{}\n');
      expect(purge.stdout + purge.stderr).toMatch(
        /ddedge: kept \/var\/lib\/ddedge\/ \(state, address history, zone backups, the gateway's DHCID records and journal\): remove it by hand if it is no longer wanted \(rm -rf \/var\/lib\/ddedge \/var\/lib\/private\/ddedge\)/,
      );
      // No override left (exit 1: none listed).
      const overrides = spawnSync('dpkg-statoverride', [`--root=${root}`, '--list'], { encoding: 'utf8' });
      expect([overrides.status, overrides.stdout]).toEqual([1, '']);
    },
  );
});
