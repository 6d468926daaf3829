// The built daemon with --containers against a real engine (podman's Docker-compatible API on a
// socket of the test's own, containers of a busybox image made here) and the sandbox as the
// provider: a labelled container's record appears, a CNAME target, Traefik rules, a hostile label
// warned about and never sent, a stopped container's record deleted after the grace, a record
// that was there before never deleted; then, with a long grace, a restart and an engine restart
// that cost no provider call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentEnv, providerCalls, withApi, zoneValue } from '../../helpers/agent-env.js';
import { runDist, startDist } from '../../helpers/cli.js';
import { readState } from '../../../src/state/state.js';
import { podmanAvailable, startPodmanEngine, type PodmanEngine } from '../../helpers/podman-engine.js';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { entryAdder } from '../../helpers/zone.js';
import { waitUntil } from '../../helpers/wait.js';

const sandbox = useSandbox({ per: 'file' });
const ADDRESS = '81.0.2.15';

describe.skipIf(!podmanAvailable())('containers name themselves (podman)', () => {
  let engine: PodmanEngine;
  beforeAll(async () => {
    engine = await startPodmanEngine();
  }, 120_000);
  afterAll(async () => {
    await engine?.close();
  }, 120_000);

  const daemon = (grace: string) => {
    const env = agentEnv(sandbox, {
      ...withApi(sandbox),
      DDEDGE_IP: ADDRESS,
      DDEDGE_INTERVAL: '1h',
      DDEDGE_CONTAINERS_GRACE: grace,
      DDEDGE_LOG_LEVEL: 'debug',
    });
    const child = startDist(['daemon', '--containers', engine.url, '--containers-traefik'], env);
    let log = '';
    child.stderr!.on('data', (d) => (log += d));
    const until = (condition: () => boolean, what: string) =>
      waitUntil(() => condition() || child.exitCode !== null, what).then(() => {
        if (child.exitCode !== null)
          throw new Error(`the daemon ended (exit ${child.exitCode}) before ${what}: ${log}`);
      });
    const cycled = () => {
      const { state } = readState(env.DDEDGE_STATE_DIR!);
      return state.lastCycleAt !== undefined;
    };
    return { child, until, cycled, log: () => log };
  };

  it('keeps the records of labelled containers, refuses a hostile label, and deletes only its own after the grace', async () => {
    entryAdder(sandbox.model.services[0]!)('900', 'photos.example.com', 'A', '192.0.2.77');
    await engine.run('web', { 'ddedge.hosts': 'web.example.com' });
    const d = daemon('2s');
    try {
      await d.until(() => zoneValue(sandbox, 'web.example.com') === ADDRESS, 'web.example.com A at start');
      await engine.run('gitea', { 'ddedge.hosts': 'git.example.com', 'ddedge.target': 'home.example.com' });
      await d.until(() => zoneValue(sandbox, 'git.example.com', 'CNAME') === 'home.example.com', 'the CNAME');
      await engine.run('blog', { 'traefik.http.routers.blog.rule': 'Host(`blog.example.com`) && PathPrefix(`/`)' });
      await d.until(() => zoneValue(sandbox, 'blog.example.com') === ADDRESS, "the Traefik rule's name");
      await engine.run('photos', { 'ddedge.hosts': 'photos.example.com' });
      await d.until(() => zoneValue(sandbox, 'photos.example.com') === ADDRESS, 'the record there before, updated');
      await engine.run('evil', { 'ddedge.hosts': 'bank.other.org,example.com,*.example.com,home.example.com' });
      await d.until(() => /container evil \([0-9a-f]{12}\): home\.example\.com is kept/.test(d.log()), 'the refusals');
      expect(d.log()).toMatch(/container evil \([0-9a-f]{12}\): bank\.other\.org is outside the served zones/);
      expect(d.log()).toMatch(/container evil \([0-9a-f]{12}\): example\.com is the apex/);
      expect(d.log()).toMatch(/container evil \([0-9a-f]{12}\): \*\.example\.com is a wildcard/);
      expect(d.log()).toMatch(
        /container blog \([0-9a-f]{12}\): in its Traefik rules only Host\(…\) names are taken; ignored: PathPrefix/,
      );
      expect(zoneValue(sandbox, 'bank.other.org')).toBeUndefined();

      await engine.stop('web');
      await d.until(
        () => zoneValue(sandbox, 'web.example.com') === undefined,
        'web.example.com deleted after the grace',
      );
      await engine.stop('photos');
      await d.until(() => /photos\.example\.com: let go/.test(d.log()), 'photos.example.com let go');
      // It held a record before a container gave it: left, with the address it was given.
      expect(zoneValue(sandbox, 'photos.example.com')).toBe(ADDRESS);
      expect(zoneValue(sandbox, 'home.example.com')).toBe(ADDRESS);
    } finally {
      d.child.kill('SIGTERM');
      expect((await d.child.result).code).toBe(0);
      await engine.remove('gitea');
      await engine.remove('blog');
      await engine.remove('evil');
    }
  }, 240_000);

  it('costs no provider call for a restart within the grace, nor for an engine restart', async () => {
    await engine.run('cloud', { 'ddedge.hosts': 'cloud.example.com' });
    const d = daemon('1h');
    try {
      await d.until(() => zoneValue(sandbox, 'cloud.example.com') === ADDRESS, 'cloud.example.com');
      await d.until(d.cycled, 'the first cycle ended');
      const calls = providerCalls(sandbox);
      const starts = () => (d.log().match(/container cloud \([0-9a-f]{12}\) started/g) ?? []).length;
      const before = starts();
      await engine.restart('cloud');
      await d.until(() => starts() > before, 'the restart seen');
      await engine.stopService();
      await d.until(() => /the container engine is not reachable/.test(d.log()), 'the engine lost');
      await engine.stop('cloud');
      await engine.startService();
      await d.until(() => /the container engine is reachable again/.test(d.log()), 'the engine back');
      await d.until(() => /containers: 0 running/.test(d.log()), 'the running set read again');
      expect(zoneValue(sandbox, 'cloud.example.com')).toBe(ADDRESS);
      expect(providerCalls(sandbox)).toBe(calls);
    } finally {
      d.child.kill('SIGTERM');
      expect((await d.child.result).code).toBe(0);
      await engine.remove('cloud');
    }
  }, 240_000);

  it('update --containers: the containers running then; an engine it cannot read keeps every name', async () => {
    await engine.run('wiki', { 'ddedge.hosts': 'wiki.example.com' });
    const env = agentEnv(sandbox, { ...withApi(sandbox), DDEDGE_IP: ADDRESS });
    try {
      const once = await runDist(['update', '--containers', engine.url], env);
      expect(once.code).toBe(0);
      expect(once.stdout).toContain(`wiki.example.com A ${ADDRESS} updated`);
      expect(zoneValue(sandbox, 'wiki.example.com')).toBe(ADDRESS);
      const away = await runDist(['update', '--containers', 'unix:///nonexistent/podman.sock'], env);
      expect(away.stderr).toMatch(/the container engine could not be read .*; every name is kept/);
      expect(away.code).toBe(5);
      expect(zoneValue(sandbox, 'wiki.example.com')).toBe(ADDRESS);
    } finally {
      await engine.remove('wiki');
    }
  }, 120_000);
});
