// systemd/ddedge-gateway.service run as systemd runs it, without systemd: its ExecStart from its
// settings file, the credentials it loads (named as its LoadCredential= lines name them, readable
// by the service user only), a state directory, as an unprivileged user holding only the
// capabilities the unit grants (AmbientCapabilities=, CapabilityBoundingSet=). It binds port 53,
// takes a signed update, answers its probes, reloads on ExecReload's signal and stops with 0.
// Without the capability the same start is refused (exit 2, EACCES): the unit's grant is what
// lets the ddedge user answer on port 53. Needs root (to become another user) and setpriv.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { keygenText } from '../../../src/gateway/keys/keygen.js';
import { startSandbox } from '../../../src/sandbox/server.js';
import { DIST, tempDir, waitForOutput } from '../../helpers/cli.js';
import { requireTool } from '../../helpers/programs.js';
import { waitFor } from '../../helpers/use-gateway.js';

const root = resolve(import.meta.dirname, '../../..');
const unit = readFileSync(join(root, 'systemd/ddedge-gateway.service'), 'utf8');
const directive = (key: string) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]!.trim());
const asRoot = process.getuid?.() === 0;
const TOOLS = asRoot && requireTool('setpriv', 'util-linux') && requireTool('nsupdate', 'bind9-dnsutils');
/** The service user: nobody, as DynamicUser= would pick one with no files of its own. */
const UID = 65534;
/** A loopback address of its own, so that no local resolver on 127.0.0.1:53 is in the way. */
const ADDRESS = '127.77.0.1';

it('ships in the npm tarball beside the other units', () => {
  const [pack] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as [{ files: { path: string }[] }];
  expect(
    pack.files
      .map((f) => f.path)
      .filter((p) => p.startsWith('systemd/'))
      .sort(),
  ).toEqual([
    'systemd/ddedge-daemon.service',
    'systemd/ddedge-gateway.service',
    'systemd/ddedge.service',
    'systemd/ddedge.timer',
  ]);
});

it.skipIf(!TOOLS)(
  'binds port 53 as an unprivileged user with the capability the unit grants, and only with it; takes an update, answers its probes, reloads, stops with 0',
  { timeout: 120_000 },
  async () => {
    const sandbox = await startSandbox({});
    try {
      // Where the unit finds ddedge: `/usr/bin/env ddedge` on the service's PATH.
      const run = tempDir('ddedge-unit-');
      chmodSync(run, 0o755);
      const bin = join(run, 'bin');
      mkdirSync(bin);
      // A copy of the built program the service user can read wherever the checkout is (/root is 0700).
      const lib = join(run, 'lib');
      cpSync(dirname(DIST), lib, { recursive: true, filter: (from) => !/\.(deb|tgz)$|\/types(\/|$)/.test(from) });
      execFileSync('chmod', ['-R', 'a+rX', lib]);
      writeFileSync(join(bin, 'ddedge'), `#!/bin/sh\nexec ${process.execPath} ${join(lib, 'ddedge.mjs')} "$@"\n`, {
        mode: 0o755,
      });
      const execStart = directive('ExecStart')[0]!.split(' ');
      expect(execStart).toEqual(['/usr/bin/env', 'ddedge', 'gateway']);

      // What the administrator puts in /etc/ddedge/credentials/, copied the way LoadCredential= does.
      const key = keygenText('router');
      const secret = /secret "([^"]+)"/.exec(key)![1]!;
      const etc = join(run, 'etc');
      mkdirSync(etc, { mode: 0o700 });
      writeFileSync(join(etc, 'gateway-keys'), `${key}grant "router" name home.example.com A;\n`, { mode: 0o600 });
      writeFileSync(join(etc, 'api-password'), 'demo-api-password', { mode: 0o600 });
      const credentials = join(run, 'credentials');
      mkdirSync(credentials, { mode: 0o500 });
      const loads = directive('LoadCredential').map((line) => line.split(':') as [string, string]);
      expect(loads.map(([name]) => name).sort()).toEqual(['api-password', 'gateway-keys']);
      for (const [name, path] of loads) {
        expect(path).toBe(`/etc/ddedge/credentials/${name}`);
        copyFileSync(join(etc, name), join(credentials, name));
        chmodSync(join(credentials, name), 0o400);
        chownSync(join(credentials, name), UID, UID);
      }
      chownSync(credentials, UID, UID);
      const state = join(run, 'state');
      mkdirSync(state, { mode: 0o700 });
      chownSync(state, UID, UID);
      const env = {
        PATH: `${bin}:${process.env.PATH}`,
        CREDENTIALS_DIRECTORY: credentials,
        STATE_DIRECTORY: state,
        DDEDGE_GATEWAY_ZONES: 'example.com',
        DDEDGE_GATEWAY_LISTEN: `${ADDRESS}:53`,
        DDEDGE_LISTEN: '127.0.0.1:0',
        DDEDGE_API_URL: sandbox.url,
        DDEDGE_API_USER: 'demo-user',
      };
      const user = ['setpriv', `--reuid=${UID}`, `--regid=${UID}`, '--clear-groups'];
      const capability = directive('AmbientCapabilities')[0]!.toLowerCase().replace(/^cap_/, '');
      expect(directive('CapabilityBoundingSet')).toEqual(['CAP_NET_BIND_SERVICE']);
      expect(capability).toBe('net_bind_service');

      // Without the capability: refused, exit 2, saying why.
      // Not spawnSync: the sandbox answers from this process's event loop.
      const bare = await new Promise<{ status: number | null; stderr: string }>((done) => {
        const child = execFile(
          user[0]!,
          [...user.slice(1), '--', ...execStart],
          { env, timeout: 60_000 },
          (error, _out, err) => done({ status: error ? Number((error as { code?: number }).code) : 0, stderr: err }),
        );
        child.stdin?.end();
      });
      expect(bare.status, bare.stderr).toBe(2);
      expect(bare.stderr).toMatch(
        new RegExp(`--dns-listen ${ADDRESS.replace(/\./g, '\\.')}:53: permission denied \\(EACCES`),
      );

      const granted = [
        ...user,
        `--inh-caps=+${capability}`,
        `--ambient-caps=+${capability}`,
        `--bounding-set=-all,+${capability}`,
        '--',
      ];
      const service = spawn(granted[0]!, [...granted.slice(1), ...execStart], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      service.stderr!.on('data', (d) => (stderr += d));
      const exited = new Promise<number | null>((r) => service.on('close', (code) => r(code)));
      try {
        const started = await waitForOutput(service, 'stderr', (t) => /answering DNS/.test(t), 30_000);
        expect(started).toContain(`on ${ADDRESS}:53 (UDP and TCP)`);
        const url = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(started)![1]!;
        const update = await new Promise<{ code: number; out: string }>((done) => {
          const child = execFile(
            'nsupdate',
            ['-t', '8', '-y', `hmac-sha256:router:${secret}`],
            { timeout: 20_000 },
            (error, stdout, err) => done({ code: error ? 1 : 0, out: stdout + err }),
          );
          child.stdin!.end(
            `server ${ADDRESS} 53\nupdate delete home.example.com A\nupdate add home.example.com 60 A 192.0.2.53\nsend\n`,
          );
        });
        expect(update.code, update.out + stderr).toBe(0);
        expect(sandbox.model.services[0]!.dns.filter((e) => e.name === 'home.example.com').map((e) => e.value)).toEqual(
          ['192.0.2.53'],
        );
        const health = await fetch(`${url}/healthz`);
        expect(health.status).toBe(200);
        // ExecReload: SIGHUP to the main process reloads the keys (the credential as loaded).
        process.kill(service.pid!, 'SIGHUP');
        await waitFor(() => /keys file reloaded/.test(stderr), 'the keys file reloaded');
        expect(stderr).toMatch(/keys file reloaded; 1 key\b/);
        expect(stderr).not.toContain(secret);
        expect(stderr).not.toContain('demo-api-password');
      } finally {
        service.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
    } finally {
      await sandbox.close();
    }
  },
);
