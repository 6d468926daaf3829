// What ships next to the code: systemd units checked by systemd's own tools, and the
// Containerfile checked against what `npm run build` produces (no container engine runs here).
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCommand } from '../../../src/cli/registry.js';

const root = join(import.meta.dirname, '../../..');
const unit = (name: string) => readFileSync(join(root, 'systemd', name), 'utf8');
const directive = (text: string, key: string) =>
  [...text.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]!.trim());
const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
if (!hasAnalyze && process.env.CI)
  throw new Error('systemd-analyze is needed to check the units (apt-get install systemd)');

describe('systemd units', () => {
  const units = readdirSync(join(root, 'systemd'));
  it('are the oneshot service, its timer, the daemon service and the gateway service', () => {
    expect(units.sort()).toEqual(['ddedge-daemon.service', 'ddedge-gateway.service', 'ddedge.service', 'ddedge.timer']);
  });

  it.skipIf(!hasAnalyze).each(['ddedge.service', 'ddedge.timer', 'ddedge-daemon.service', 'ddedge-gateway.service'])(
    'systemd-analyze verify accepts %s',
    (name) => {
      const run = spawnSync('systemd-analyze', ['verify', join(root, 'systemd', name)], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toBe('');
    },
  );

  it.skipIf(!hasAnalyze).each(['ddedge.service', 'ddedge-daemon.service'])(
    'systemd-analyze security rates %s at 1.5 or below',
    (name) => {
      const out = execFileSync('systemd-analyze', ['security', '--offline=yes', join(root, 'systemd', name)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const score = Number(/Overall exposure level for \S+: ([\d.]+)/.exec(out)?.[1]);
      expect(score).toBeLessThanOrEqual(1.5);
    },
  );

  // The gateway binds port 53 (CAP_NET_BIND_SERVICE, and so no PrivateUsers=): 2.0 at most.
  it.skipIf(!hasAnalyze)('systemd-analyze security rates ddedge-gateway.service at 2.0 or below', () => {
    const out = execFileSync(
      'systemd-analyze',
      ['security', '--offline=yes', join(root, 'systemd', 'ddedge-gateway.service')],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const score = Number(/Overall exposure level for \S+: ([\d.]+)/.exec(out)?.[1]);
    expect(score).toBeLessThanOrEqual(2.0);
  });

  it('the gateway service: port 53 through one capability, only its two secrets, restarted unless a person must act, hardened as the others', () => {
    const text = unit('ddedge-gateway.service');
    expect(directive(text, 'ExecStart')).toEqual(['/usr/bin/env ddedge gateway']);
    expect(directive(text, 'ExecReload')).toEqual(['/bin/kill -HUP $MAINPID']);
    expect(directive(text, 'AmbientCapabilities')).toEqual(['CAP_NET_BIND_SERVICE']);
    expect(directive(text, 'CapabilityBoundingSet')).toEqual(['CAP_NET_BIND_SERVICE']);
    // In a user namespace of its own the capability would not reach the host's network.
    expect(directive(text, 'PrivateUsers')).toEqual([]);
    // The credential names the gateway reads: gateway-keys (the keys file) and the API password's.
    expect(directive(text, 'LoadCredential')).toEqual([
      'gateway-keys:/etc/ddedge/credentials/gateway-keys',
      'api-password:/etc/ddedge/credentials/api-password',
    ]);
    expect(findCommand('gateway')!.flags.keys!.describe).toContain('credential gateway-keys');
    expect(directive(text, 'EnvironmentFile')).toEqual(['-/etc/ddedge/ddedge.env', '-/etc/ddedge/gateway.env']);
    expect(directive(text, 'Restart')).toEqual(['on-failure']);
    expect(directive(text, 'RestartPreventExitStatus')).toEqual(['2 3']);
    const daemon = unit('ddedge-daemon.service');
    for (const key of [
      'User',
      'DynamicUser',
      'StateDirectory',
      'CacheDirectory',
      'NoNewPrivileges',
      'ProtectSystem',
      'RestrictAddressFamilies',
      'SystemCallFilter',
      'UMask',
      'ProtectProc',
      'ProcSubset',
    ]) {
      expect(directive(text, key), key).toEqual(directive(daemon, key));
    }
  });

  it('run ddedge wherever it was installed, with credentials, state and cache directories, and the ddedge user or a dynamic one', () => {
    for (const name of ['ddedge.service', 'ddedge-daemon.service']) {
      const text = unit(name);
      // Found on the service's PATH: /usr/bin (the Debian package), /usr/local/bin (npm install
      // -g, the single executable); not /usr/local/lib, where no install ever puts it.
      expect(directive(text, 'ExecStart')[0]).toMatch(/^\/usr\/bin\/env ddedge (update|daemon)$/);
      expect(text).not.toContain('/usr/local/lib');
      expect(directive(text, 'LoadCredential')).toEqual(['ddedge:/etc/ddedge/credentials']);
      expect(directive(text, 'StateDirectory')).toEqual(['ddedge']);
      expect(directive(text, 'CacheDirectory')).toEqual(['ddedge']);
      expect(directive(text, 'CacheDirectoryMode')).toEqual(['0700']);
      expect(directive(text, 'User')).toEqual(['ddedge']);
      expect(directive(text, 'DynamicUser')).toEqual(['yes']);
      expect(directive(text, 'RestrictAddressFamilies')).toEqual(['AF_INET AF_INET6 AF_UNIX AF_NETLINK']);
      expect(directive(text, 'CapabilityBoundingSet')).toEqual(['']);
    }
  });

  it('map the contract exit codes: transient ones are no failure of the oneshot; the daemon never restarts on 2 or 3', () => {
    expect(directive(unit('ddedge.service'), 'SuccessExitStatus')).toEqual(['4 5 6']);
    expect(directive(unit('ddedge-daemon.service'), 'RestartPreventExitStatus')).toEqual(['2 3']);
    expect(directive(unit('ddedge-daemon.service'), 'Restart')).toEqual(['on-failure']);
    expect(directive(unit('ddedge.timer'), 'Persistent')).toEqual(['true']);
    expect(directive(unit('ddedge.timer'), 'RandomizedDelaySec')[0]).toBeTruthy();
  });

  it('the docs install ddedge where the units find it', () => {
    for (const page of ['README.md', 'docs/running.md'])
      expect(readFileSync(join(root, page), 'utf8'), page).not.toContain('/usr/local/lib/ddedge');
    const readme = readFileSync(join(root, 'docs/running.md'), 'utf8');
    expect(readme).toContain('systemctl enable --now ddedge.timer');
    expect(readme).toMatch(/install -D .*systemd\/ddedge\.service/);
  });
});

describe('Containerfile', () => {
  const text = readFileSync(join(root, 'packaging', 'Containerfile'), 'utf8');
  const instruction = (name: string) =>
    [...text.matchAll(new RegExp(`^${name}\\s+(.*)$`, 'gm'))].map((m) => m[1]!.trim());
  const entrypoint = JSON.parse(instruction('ENTRYPOINT')[0]!) as string[];

  it('is the single executable on scratch, at the path the entrypoint runs, staged by packaging/container.sh', () => {
    expect(instruction('FROM')).toEqual(['scratch']);
    expect(instruction('COPY')[0]).toBe('rootfs/ /');
    expect(entrypoint).toEqual(['/usr/local/bin/ddedge']);
    const stage = readFileSync(join(root, 'packaging', 'container.sh'), 'utf8');
    expect(stage).toContain('install -m 0755 "$program" "$rootfs/usr/local/bin/ddedge"');
    expect(stage).toContain('program=dist/bin/ddedge-linux-x64');
    // No RUN: nothing in the image can run but ddedge (and building it needs no runtime).
    expect(instruction('RUN')).toEqual([]);
  });

  it('runs as a user that is not root, with the state on a volume', () => {
    const user = instruction('USER').at(-1)!;
    expect(['root', '0', '0:0']).not.toContain(user);
    expect(instruction('VOLUME')[0]).toBe('["/state"]');
    expect(text).toMatch(/DDEDGE_STATE_DIR=\/state/);
    // The state directory belongs to the user the image runs as.
    expect(instruction('COPY')).toContain(`--chown=${user} state/ /state/`);
  });

  it('checks health with `ddedge health` and starts the daemon', () => {
    const health = JSON.parse(/HEALTHCHECK .*CMD (\[.*\])$/m.exec(text)![1]!) as string[];
    expect(health).toEqual([...entrypoint, 'health']);
    const cmd = JSON.parse(instruction('CMD')[0]!) as string[];
    expect(cmd).toEqual(['daemon']);
    expect(findCommand(cmd[0]!)).toBeDefined();
    expect(findCommand(health.at(-1)!)).toBeDefined();
  });

  it('logs JSON lines for the container runtime', () => {
    expect(text).toMatch(/DDEDGE_LOG_FORMAT=json/);
  });
});

describe('npm install', () => {
  // npm 11.16 and later list the dependencies whose install scripts package.json's allowScripts
  // does not cover, on every install, which a user reads as a warning; esbuild's checks its binary.
  const npmVersion = spawnSync('npm', ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
  const [major = 0, minor = 0] = npmVersion.split('.').map(Number);
  it.skipIf(major < 11 || (major === 11 && minor < 16))(
    'finds no install script that package.json does not allow or deny',
    () => {
      const pending = spawnSync('npm', ['approve-scripts', '--allow-scripts-pending'], { cwd: root, encoding: 'utf8' });
      expect(pending.status, pending.stderr).toBe(0);
      expect(pending.stdout).toMatch(/No packages with unreviewed install scripts/);
      expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).allowScripts).toEqual({ esbuild: true });
    },
  );
});

describe('docs/development.md: the arm64 executable on an x64 machine', () => {
  // The packages .ci/run installs to build and run it (cross strip, qemu, the arm64 C libraries)
  // are the ones docs/development.md tells a reader to install; test/packaging runs its qemu lines.
  const ci = readFileSync(join(root, '.ci/run'), 'utf8');
  const ciPackages = [...ci.matchAll(/pkg_need\+=\(([^)]*)\)/g)]
    .flatMap((m) => m[1]!.split(/\s+/))
    .filter((name) => /arm64|aarch64|qemu/.test(name))
    .sort();
  const readme = readFileSync(join(root, 'docs/development.md'), 'utf8');

  it('names every package .ci/run installs for it, in one apt-get line, and runs it with the cross libraries', () => {
    expect(ciPackages).toContain('binutils-aarch64-linux-gnu');
    const line = /^apt-get install (.*binutils-aarch64-linux-gnu.*)$/m.exec(readme);
    expect(line?.[1]?.split(/\s+/).sort()).toEqual(ciPackages);
    expect(readme).toContain('qemu-aarch64-static -L /usr/aarch64-linux-gnu dist/bin/ddedge-linux-arm64');
    expect(readme).toContain('QEMU_LD_PREFIX=/usr/aarch64-linux-gnu');
  });
});
