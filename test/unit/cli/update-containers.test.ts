// `ddedge update --containers`: the containers running at that moment name hosts, their names
// written beside the agent's own, in the text and JSON outputs; an engine that cannot be read
// keeps every name and says so in the exit code.
import { afterEach, describe, expect, it } from 'vitest';
import { runMain, tempDir } from '../../helpers/cli.js';
import { containerId, FakeDockerEngine } from '../../helpers/fake-docker-engine.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { withApi, zoneValue } from '../../helpers/agent-env.js';

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
});
