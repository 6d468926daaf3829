// The container image and its examples agree with each other and with what `npm run build`
// produces: the same numeric user, the entry at the path the image copies it to, the state
// where the image keeps it, secrets mounted where the key variable points and readable by
// that user. No container engine runs here; the secret modes are tried on real files as uid 1000.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { distForOtherUsers } from '../../helpers/staged-dist.js';

const root = join(import.meta.dirname, '../../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const containerfile = read('packaging/Containerfile');
const instruction = (name: string) =>
  [...containerfile.matchAll(new RegExp(`^${name}\\s+(.*)$`, 'gm'))].map((m) => m[1]!.trim());
const [imageUid, imageGid] = instruction('USER').at(-1)!.split(':').map(Number) as [number, number];
const entrypoint = JSON.parse(instruction('ENTRYPOINT')[0]!) as string[];
const stateDir = /DDEDGE_STATE_DIR=(\S+)/.exec(containerfile)![1]!;
/** `key: value` of a YAML mapping, in flow or block style (the examples use both). */
const yamlValues = (text: string, key: string) =>
  [...text.matchAll(new RegExp(`(?:^|[{,\\s])${key}:\\s*("?)([^,}\\s"]+)\\1`, 'gm'))].map((m) => m[2]!);

describe('Containerfile', () => {
  it('runs as a numeric user that is not root (kubelet checks runAsNonRoot only on numbers)', () => {
    expect(instruction('USER').at(-1)).toMatch(/^\d+:\d+$/);
    expect(imageUid).toBeGreaterThan(0);
    expect(imageGid).toBeGreaterThan(0);
  });

  it('runs the single executable packaging/container.sh stages, and tells podman users to keep the HEALTHCHECK', () => {
    expect(instruction('COPY')[0]).toBe('rootfs/ /');
    expect(entrypoint).toEqual(['/usr/local/bin/ddedge']);
    expect(read('packaging/container.sh')).toContain('"$rootfs/usr/local/bin/ddedge"');
    expect(containerfile).toMatch(/podman build --format docker/);
  });

  it('has a .containerignore (and .dockerignore) that sends dist/ only, never secrets or node_modules', () => {
    const ignore = read('.containerignore');
    expect(ignore.split('\n').filter((l) => l && !l.startsWith('#'))).toEqual(['*', '!dist/', 'dist/types/']);
    expect(read('.dockerignore')).toBe(ignore);
  });
});

describe('examples/kubernetes.yaml', () => {
  const k8s = read('examples/kubernetes.yaml');

  it('runs as the image user, numeric, with runAsNonRoot, and a read-only root', () => {
    expect(yamlValues(k8s, 'runAsNonRoot')).toEqual(['true']);
    expect(yamlValues(k8s, 'runAsUser')).toEqual([String(imageUid)]);
    expect(yamlValues(k8s, 'runAsGroup')).toEqual([String(imageGid)]);
    expect(yamlValues(k8s, 'readOnlyRootFilesystem')).toEqual(['true']);
    expect(yamlValues(k8s, 'allowPrivilegeEscalation')).toEqual(['false']);
  });

  it('mounts the Secret readable by the image user (fsGroup and a group-readable defaultMode), not by others', () => {
    expect(yamlValues(k8s, 'fsGroup')).toEqual([String(imageGid)]);
    const mode = Number.parseInt(yamlValues(k8s, 'defaultMode')[0]!, 8);
    expect(mode & 0o040).toBe(0o040);
    expect(mode & 0o007).toBe(0);
  });

  it('points the key variable into the secret mount, the state at the image state directory, the probes at the endpoint it listens on', () => {
    const keyFile = /DDEDGE_DYNDNS_KEY_FILE, value: (\S+) \}/.exec(k8s)![1]!;
    const mounts = [...k8s.matchAll(/\{ name: ([\w-]+), mountPath: (\S+?)[, ]/g)].map((m) => ({
      name: m[1]!,
      path: m[2]!,
    }));
    const secretMount = mounts.find((m) => new RegExp(`name: ${m.name}, secret:`).test(k8s))!;
    expect(keyFile.startsWith(`${secretMount.path}/`)).toBe(true);
    expect(mounts.find((m) => m.name === 'state')?.path).toBe(stateDir);
    // The probes reach the daemon's HTTP endpoint on the port DDEDGE_LISTEN opens.
    const listenPort = /DDEDGE_LISTEN, value: "[\d.]+:(\d+)"/.exec(k8s)![1]!;
    expect(k8s).toContain(`containerPort: ${listenPort} }`);
    expect(k8s).toMatch(/livenessProbe: \{ httpGet: \{ path: \/healthz, port: metrics \}/);
    expect(k8s).toMatch(/readinessProbe: \{ httpGet: \{ path: \/healthz, port: metrics \}/);
  });
});

describe('examples/compose.yaml', () => {
  const compose = read('examples/compose.yaml');
  it('runs as the image user, read-only, with the key where the variable points and the state volume', () => {
    expect(yamlValues(compose, 'user')).toEqual([`${imageUid}:${imageGid}`]);
    expect(yamlValues(compose, 'read_only')).toEqual(['true']);
    expect(yamlValues(compose, 'DDEDGE_DYNDNS_KEY_FILE')).toEqual(['/run/secrets/dyndns-key']);
    expect(compose).toMatch(new RegExp(`volumes: \\[ddedge-state:${stateDir}\\]`));
  });
});

describe('docs/running.md', () => {
  it('shows the examples as they are in examples/', () => {
    const readme = read('docs/running.md');
    for (const file of ['examples/kubernetes.yaml', 'examples/compose.yaml'])
      expect(readme).toContain('```yaml\n' + read(file) + '```');
    expect(readme).toContain('podman build --format docker');
  });
});

// As root, the modes are tried for real: the built entry run as the image's user reads a
// root-owned key file through its group with 0440 (fsGroup + defaultMode), and not with 0400.
describe.skipIf(process.getuid?.() !== 0)('secret file modes, as uid 1000', () => {
  const readKey = (mode: number, gid: number) => {
    const dir = tempDir('ddedge-secret-');
    chmodSync(dir, 0o755);
    const key = join(dir, 'dyndns-key');
    writeFileSync(key, 'secret-key-value');
    chownSync(key, 0, gid);
    chmodSync(key, mode);
    const state = tempDir('ddedge-state-');
    chownSync(state, imageUid, imageGid);
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: state,
      DDEDGE_DYNDNS_USER: 'u',
      DDEDGE_DYNDNS_KEY_FILE: key,
      DDEDGE_HOSTS: 'home.example.com',
      DDEDGE_STATE_DIR: state,
    };
    return spawnSync(process.execPath, [distForOtherUsers(), 'update', '--ip', '81.0.2.15', '--dry-run'], {
      env,
      uid: imageUid,
      gid: imageGid,
      encoding: 'utf8',
      cwd: state,
    });
  };
  it('0440 with group fsGroup is readable', () => {
    const run = readKey(0o440, imageGid);
    expect(run.stderr).not.toMatch(/EACCES/);
    expect(run.status).toBe(0);
  });
  it('0400 root-owned (the old example) is not: exit 2 naming the file', () => {
    const run = readKey(0o400, 0);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/DDEDGE_DYNDNS_KEY_FILE: cannot read ".*dyndns-key": EACCES/);
  });
});
