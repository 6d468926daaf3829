// The container image (packaging/container.sh, packaging/Containerfile): the x64 single executable on
// scratch, built by podman and run as a user runs it: `update` against the sandbox on the
// host, the daemon answering /healthz, a read-only root file system, uid 1000. Podman runs
// here with runc and explicit limits (this machine's); the image needs nothing pulled.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { readmeRecipe, runRecipe, withPorts } from '../helpers/readme-recipes.js';
import { artefact, BIN, ROOT, run, sandbox, sandboxEnv } from './helpers.js';
import { requireTool } from '../helpers/programs.js';
import { waitUntil } from '../helpers/wait.js';

const X64 = join(BIN, 'ddedge-linux-x64');
const TAG = 'localhost/ddedge:packaging-test';
const hasAll =
  process.arch === 'x64' &&
  process.getuid?.() === 0 &&
  artefact(X64, 'npm run build:binaries') &&
  requireTool('podman', 'podman') &&
  requireTool('runc', 'runc');
const podman = ['podman', '--runtime', 'runc'];
const limits = ['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024'];

function freePort(): Promise<number> {
  return new Promise((resolvePort) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

describe.skipIf(!hasAll)('the container image', () => {
  it('is built from the single executable on scratch, and runs a cycle and the daemon read-only as uid 1000', {
    timeout: 600_000,
  }, async () => {
    const built = spawnSync(join(ROOT, 'packaging/container.sh'), [TAG], { encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    const config = JSON.parse(execFileSync('podman', ['image', 'inspect', TAG], { encoding: 'utf8' }))[0].Config;
    expect(config.User).toBe('1000:1000');
    expect(config.Entrypoint).toEqual(['/usr/local/bin/ddedge']);
    expect(config.Cmd).toEqual(['daemon']);
    // No shell to run.
    const shell = spawnSync(
      'podman',
      ['--runtime', 'runc', 'run', '--rm', ...limits, '--entrypoint', '/bin/sh', TAG, '-c', 'true'],
      { encoding: 'utf8' },
    );
    expect(shell.status).not.toBe(0);

    const box = await sandbox([X64], { PATH: process.env.PATH!, HOME: tempDir() });
    const settings = sandboxEnv(box, '/state');
    delete settings.DDEDGE_STATE_DIR;
    const envFlags = Object.entries(settings).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    // Host networking: the sandbox listens on the host's loopback. Podman schedules HEALTHCHECK
    // through systemd, which this machine does not run: the one-shot runs go without it, and
    // the daemon's check is run by hand (podman healthcheck run).
    const base = [...podman, 'run', '--rm', '--network', 'host', '--read-only', ...limits, ...envFlags];
    const oneShot = [...base, '--no-healthcheck'];
    let daemon: ReturnType<typeof spawn> | undefined;
    try {
      const id = await run([...oneShot, TAG, 'id'], { PATH: process.env.PATH! }, 120_000);
      // ddedge has no `id` command: exit 2, and the image ran (as its own program).
      expect(id.code).toBe(2);
      const update = await run([...oneShot, TAG, 'update', '--ip', '81.0.2.15'], { PATH: process.env.PATH! }, 120_000);
      expect([update.code, update.stdout], update.stderr).toEqual([0, 'home.example.com A 81.0.2.15 updated\n']);

      const port = await freePort();
      daemon = spawn(
        'podman',
        [
          ...base.slice(1),
          '--name',
          `ddedge-test-${port}`,
          TAG,
          'daemon',
          '--ip',
          '81.0.2.15',
          '--listen',
          `127.0.0.1:${port}`,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let healthy: Response | undefined;
      const answersHealthy = async () => {
        healthy = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
        return Boolean(healthy?.ok);
      };
      await waitUntil(answersHealthy, 'the container answering /healthz', { everyMs: 500 });
      expect(healthy?.status).toBe(200);
      const check = spawnSync('podman', ['healthcheck', 'run', `ddedge-test-${port}`], { encoding: 'utf8' });
      expect(check.status, check.stdout + check.stderr).toBe(0);
      // Its process runs as the image's uid 1000 (named ddedge in the image's passwd).
      const top = execFileSync('podman', ['top', `ddedge-test-${port}`, 'user'], { encoding: 'utf8' });
      expect(top.trim().split('\n').slice(1)).toEqual(['ddedge']);
      execFileSync('podman', ['stop', '--time', '20', `ddedge-test-${port}`]);
      const code = await new Promise<number | null>((r) =>
        daemon!.exitCode !== null ? r(daemon!.exitCode) : daemon!.on('exit', r),
      );
      expect(code).toBe(0);
    } finally {
      if (daemon && daemon.exitCode === null) daemon.kill('SIGKILL');
      await box.stop();
      spawnSync('podman', ['rmi', '--force', TAG]);
    }
  });
});

// docs/running.md's try-it block (<!-- recipe: container-sandbox -->), run as written, as root: the
// image `npm run build:container` makes (ddedge:latest), the sandbox on the host reached over
// the host's network, the key file given to uid 1000, a one-shot update, then the daemon, its
// /healthz and `podman healthcheck run`. The only change is the daemon's port (a free one; the
// sandbox picks its own): the
// block's own --ulimit flags carry it on hosts whose hard limits are below podman's defaults, as
// this machine's are, with no containers.conf of the test's.
describe.skipIf(!hasAll)("docs/running.md's container block against the sandbox", () => {
  it('updates once, then runs the daemon, healthy, and cleans up after itself', { timeout: 600_000 }, async () => {
    const built = spawnSync(join(ROOT, 'packaging/container.sh'), [], { encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    expect(built.stdout).toMatch(/^built image ddedge:latest with podman/);
    const dir = tempDir('ddedge-container-recipe-');
    symlinkSync(join(ROOT, 'dist'), join(dir, 'dist'));
    // The key file is bind-mounted from here: uid 1000 must reach it.
    chmodSync(dir, 0o755);
    try {
      const ports = { 9464: await freePort() };
      const recipe = await runRecipe(withPorts(readmeRecipe('container-sandbox'), ports), {
        cwd: dir,
        env: { PATH: process.env.PATH!, HOME: dir },
        timeoutMs: 300_000,
      });
      expect(recipe.code, recipe.output).toBe(0);
      expect(recipe.output).toContain('home.example.com A 81.0.2.15 updated\n');
      expect(recipe.output).toMatch(/^healthy: /m);
      expect(recipe.output).toMatch(/^healthy$/m);
      // The daemon's first cycle found the address the one-shot run had sent, on the shared volume.
      expect(readFileSync(join(dir, 'sandbox.log'), 'utf8').match(/GET \/\w+\/ host=home\.example\.com/g)).toHaveLength(
        1,
      );
      expect(statSync(join(dir, 'dyndns-key')).uid).toBe(1000);
    } finally {
      spawnSync('podman', ['rm', '--force', 'ddedge-try']);
      spawnSync('podman', ['volume', 'rm', '--force', 'ddedge-try']);
    }
  });
});
