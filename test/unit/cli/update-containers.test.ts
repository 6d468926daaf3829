// `ddedge update --containers`: the containers running at that moment name hosts, their names
// written beside the agent's own, in the text and JSON outputs; an engine that cannot be read
// keeps every name and says so in the exit code.
import { afterEach, describe, expect, it } from 'vitest';
import { runMain, tempDir } from '../../helpers/cli.js';
import { containerId, FakeDockerEngine } from '../../helpers/fake-docker-engine.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { withApi, zoneValue } from '../../helpers/agent-env.js';
import { readHistory } from '../../../src/state/history.js';

const sandbox = useSandbox();
let engine: FakeDockerEngine | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});

describe('update --containers', () => {
  it('writes the names of the containers running now, with the agent own hosts', async () => {
    engine = await new FakeDockerEngine().listen();
    const id = containerId();
    engine.running.set(id, {
      id,
      name: 'gitea',
      labels: { 'ddedge.hosts': 'git.example.com', 'ddedge.target': 'home.example.com' },
    });
    const web = containerId();
    engine.running.set(web, { id: web, name: 'web', labels: { 'ddedge.hosts': 'web.example.com,bank.other.org' } });
    const env = {
      ...withApi(sandbox),
      DDEDGE_IP: '81.0.2.15',
      DDEDGE_HOSTS: 'home.example.com',
      DDEDGE_STATE_DIR: tempDir(),
    };
    const run = await runMain(['update', '--containers', engine.url, '--json'], env);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.hosts.map((h: { host: string }) => h.host)).toEqual(['home.example.com', 'web.example.com']);
    expect(out.containers).toContainEqual(
      expect.objectContaining({ host: 'git.example.com', type: 'CNAME', value: 'home.example.com', action: 'updated' }),
    );
    expect(run.stderr).toMatch(/container web \([0-9c]{12}\): bank\.other\.org is outside the served zones/);
    expect(zoneValue(sandbox, 'git.example.com', 'CNAME')).toBe('home.example.com');
    expect(zoneValue(sandbox, 'web.example.com')).toBe('81.0.2.15');
  });

  it('keeps every name when the engine cannot be read, and says so in its exit code', async () => {
    const env = {
      ...withApi(sandbox),
      DDEDGE_IP: '81.0.2.15',
      DDEDGE_SERVICE: 'example.com',
      DDEDGE_STATE_DIR: tempDir(),
    };
    const run = await runMain(['update', '--containers', 'unix:///nonexistent/docker.sock'], env);
    expect(run.stderr).toMatch(/the container engine could not be read/);
    expect(run.code).toBe(4);
  });

  it('costs one history entry per name that goes or comes back, none for an address the same', async () => {
    engine = await new FakeDockerEngine().listen();
    const hosts = Array.from({ length: 20 }, (_, i) => `app${i}.example.com`).sort();
    const id = containerId();
    const container = { id, name: 'apps', labels: { 'ddedge.hosts': hosts.join(',') } };
    const stateDir = tempDir();
    const env = {
      ...withApi(sandbox),
      DDEDGE_IP: '81.0.2.15',
      DDEDGE_IP6: '2a00:1450:4003::15',
      DDEDGE_IPV6: 'true',
      DDEDGE_SERVICE: 'example.com',
      DDEDGE_CONTAINERS_GRACE: '0s',
      DDEDGE_MAX_CALLS_PER_HOUR: '3600',
      DDEDGE_STATE_DIR: stateDir,
    };
    const update = async (extra: Record<string, string> = {}) => {
      const before = readHistory(stateDir).history.entries.length;
      const run = await runMain(['update', '--containers', engine!.url], { ...env, ...extra });
      expect(run.code, run.stderr).toBe(0);
      return readHistory(stateDir)
        .history.entries.slice(before)
        .map((e) => `${e.event} ${e.host} ${e.type}`)
        .sort();
    };
    engine.running.set(id, container);
    // The first time: each name comes, and its first addresses are recorded.
    expect(await update()).toHaveLength(60);
    engine.running.delete(id);
    const lost = await update();
    expect(lost).toEqual(hosts.map((h) => `removed ${h} A`));
    expect(zoneValue(sandbox, 'app0.example.com')).toBeUndefined();
    // Back with the same addresses: the name's return is its one entry; no address changed.
    engine.running.set(id, container);
    expect(await update()).toEqual(hosts.map((h) => `added ${h} A`));
    expect(zoneValue(sandbox, 'app0.example.com')).toBe('81.0.2.15');
    // Gone again, and back with another IPv4 address: that change is the one more entry of each name.
    engine.running.delete(id);
    await update();
    engine.running.set(id, container);
    const moved = await update({ DDEDGE_IP: '81.0.2.16' });
    expect(moved.filter((e) => e.startsWith('added'))).toHaveLength(20);
    expect(moved.filter((e) => !e.startsWith('added'))).toEqual(hosts.map((h) => `changed ${h} A`));
    const changed = readHistory(stateDir).history.entries.filter(
      (e) => e.host === 'app0.example.com' && e.type === 'A',
    );
    expect(changed.at(-1)).toMatchObject({ event: 'changed', old: '81.0.2.15', new: '81.0.2.16' });
  });
});
