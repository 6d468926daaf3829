// A real container engine of the test's own: podman's Docker-compatible API
// (`podman system service`) on a socket in a temp dir, with its own storage, runtime state and
// events file there, and containers of a tiny image made here from the static busybox (no
// registry is reached: nothing is pulled). Containers are run, stopped, restarted and removed
// with the podman CLI on the same storage, so the service sees them as any engine's client
// would; the service itself can be stopped and started again while they run. close() removes
// every container, ends the service and removes the storage, and checks nothing is left.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireTool } from './programs.js';
import { waitUntil } from './wait.js';

const IMAGE = 'localhost/ddedge-busybox:test';
/** A podman command that does not end within this is broken. */
const COMMAND_BOUND_MS = 60_000;

/** True when the ELF file at `path` has no program interpreter (it runs in an empty image). */
function isStaticElf(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(64);
    readSync(fd, head, 0, 64, 0);
    if (head.readUInt32BE(0) !== 0x7f454c46 || head[4] !== 2) return false;
    const phoff = Number(head.readBigUInt64LE(0x20));
    const phentsize = head.readUInt16LE(0x36);
    const phnum = head.readUInt16LE(0x38);
    const table = Buffer.alloc(phentsize * phnum);
    readSync(fd, table, 0, table.length, phoff);
    for (let i = 0; i < phnum; i++) if (table.readUInt32LE(i * phentsize) === 3) return false;
    return true;
  } finally {
    closeSync(fd);
  }
}

/** The static busybox the image is made of, if this machine can run the engine (podman, runc, busybox-static). */
function staticBusybox(): string | undefined {
  const podman = requireTool('podman');
  const runc = requireTool('runc');
  const busybox = requireTool('busybox', 'busybox-static', isStaticElf);
  return podman && runc ? busybox : undefined;
}

/** Whether the engine can run here; throws under DDEDGE_REQUIRE_TOOLS=1 when it cannot. */
export const podmanAvailable = (): boolean => staticBusybox() !== undefined;

export interface PodmanEngine {
  /** The URL a watch is given: unix://…/podman.sock. */
  readonly url: string;
  /** `podman run -d` of the busybox image sleeping, with these labels; resolves to its id. */
  run(name: string, labels: Record<string, string>): Promise<string>;
  stop(name: string): Promise<void>;
  start(name: string): Promise<void>;
  restart(name: string): Promise<void>;
  remove(name: string): Promise<void>;
  /** Ends the API service (the containers keep running), and starts it again. */
  stopService(): Promise<void>;
  startService(): Promise<void>;
  close(): Promise<void>;
}

export async function startPodmanEngine(): Promise<PodmanEngine> {
  const busybox = staticBusybox();
  if (!busybox) throw new Error('podman, runc and a static busybox are needed');
  const dir = mkdtempSync(join(tmpdir(), 'ddedge-podman-'));
  const socketPath = join(dir, 'podman.sock');
  // The defaults podman would take from /etc, made the test's own: rootful podman raises the
  // containers' nofile and nproc limits, which a machine that is itself a container may refuse.
  writeFileSync(
    join(dir, 'containers.conf'),
    '[containers]\ndefault_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]\n' +
      '[engine]\nruntime = "runc"\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\n',
  );
  const env = { ...process.env, CONTAINERS_CONF: join(dir, 'containers.conf') };
  const global = [
    ...['--root', join(dir, 'root'), '--runroot', join(dir, 'runroot'), '--tmpdir', join(dir, 'tmp')],
    ...['--runtime', 'runc', '--cgroup-manager', 'cgroupfs', '--events-backend', 'file', '--storage-driver', 'vfs'],
  ];
  const podman = (...args: string[]): Promise<string> =>
    new Promise((resolve, reject) =>
      execFile('podman', [...global, ...args], { env, timeout: COMMAND_BOUND_MS }, (error, stdout, stderr) =>
        error ? reject(new Error(`podman ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout.trim()),
      ),
    );

  let service: ChildProcess | undefined;
  const startService = async () => {
    rmSync(socketPath, { force: true });
    const log = openSync(join(dir, 'service.log'), 'a');
    service = spawn('podman', [...global, 'system', 'service', '--time=0', `unix://${socketPath}`], {
      env,
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    // A test run ended from outside must not leave the service behind.
    const child = service;
    process.once('exit', () => child.kill('SIGKILL'));
    await waitUntil(() => ping(socketPath), 'the podman service answering /_ping');
  };
  const stopService = async () => {
    const child = service;
    service = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(force);
  };

  try {
    mkdirSync(join(dir, 'image', 'bin'), { recursive: true });
    writeFileSync(join(dir, 'image', 'bin', 'busybox'), readFileSync(busybox), { mode: 0o755 });
    await new Promise<void>((resolve, reject) =>
      execFile('tar', ['-C', join(dir, 'image'), '-cf', join(dir, 'busybox.tar'), '.'], (e) =>
        e ? reject(e) : resolve(),
      ),
    );
    await podman('import', '--change', 'CMD ["/bin/busybox", "sleep", "3600"]', join(dir, 'busybox.tar'), IMAGE);
    await startService();
  } catch (error) {
    await stopService();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  return {
    url: `unix://${socketPath}`,
    async run(name, labels) {
      const labelArgs = Object.entries(labels).flatMap(([k, v]) => ['--label', `${k}=${v}`]);
      return podman(
        'run',
        '-d',
        '--network',
        'none',
        '--name',
        name,
        ...labelArgs,
        IMAGE,
        '/bin/busybox',
        'sleep',
        '3600',
      );
    },
    // busybox's sleep as PID 1 ignores SIGTERM: stop at once.
    stop: async (name) => void (await podman('stop', '-t', '0', name)),
    start: async (name) => void (await podman('start', name)),
    restart: async (name) => void (await podman('restart', '-t', '0', name)),
    remove: async (name) => void (await podman('rm', '-f', '-t', '0', name)),
    stopService,
    startService,
    async close() {
      let failure: unknown;
      try {
        await podman('rm', '-a', '-f', '-t', '0');
        const left = await podman('ps', '-a', '-q');
        if (left) failure = new Error(`podman containers left: ${left}`);
      } catch (error) {
        failure = error;
      }
      await stopService();
      const mounts = readFileSync('/proc/self/mounts', 'utf8')
        .split('\n')
        .filter((line) => line.includes(dir));
      rmSync(dir, { recursive: true, force: true });
      if (mounts.length) failure ??= new Error(`mounts left under ${dir}: ${mounts.join('; ')}`);
      if (failure) throw failure;
    },
  };
}

function ping(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get({ socketPath, path: '/_ping', timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('error', () => resolve(false));
    request.on('timeout', () => request.destroy());
  });
}
