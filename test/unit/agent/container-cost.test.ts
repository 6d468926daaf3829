// What the containers' names cost, counted by the agent's own call budget against the sandbox
// (the registrar API as the provider answers it): a burst of 20 starts is one listing and one
// create per name; a cycle with nothing changed, and containers that flap within their grace,
// cost nothing; a budget too small for the burst stops at its limit (exit 5: some were written) and the rest follow
// when calls resume.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listedContainerNames } from '../../../src/agent/container-source.js';
import { runCycle } from '../../../src/agent/cycle.js';
import type { ContainerSeen } from '../../../src/containers/engine/news.js';
import { loadConfig } from '../../../src/config/load.js';
import { createLogger, silentLogger } from '../../../src/lib/log.js';
import type { State } from '../../../src/state/state.js';
import { tempDir } from '../../helpers/cli.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();

const calls = (state: State) => Object.values(state.calls ?? {}).reduce((a, b) => a + b, 0);
const service = (n: number): ContainerSeen => ({
  id: `c${n}`,
  name: `svc${n}`,
  labels: { 'ddedge.hosts': `svc${n}.example.com` },
});

function agent(budget = 60) {
  const { apiUser, apiPassword } = sandbox.credentials;
  const config = loadConfig({
    flags: {
      ip: '81.0.2.15',
      service: 'example.com',
      containers: 'unix:///run/test.sock',
      'state-dir': tempDir(),
      'max-calls-per-hour': String(budget),
    },
    env: { DDEDGE_API_URL: sandbox.url, DDEDGE_API_USER: apiUser, DDEDGE_API_PASSWORD: apiPassword },
    purpose: 'cycle',
  });
  const clock = new FakeClock(Date.now());
  const cycle = (running: ContainerSeen[]) =>
    runCycle({
      config,
      logger: silentLogger,
      now: () => new Date(clock.now()),
      containers: { ...listedContainerNames(config, silentLogger, clock, running), only: true },
    });
  const held = () =>
    sandbox.model.services[0]!.dns.filter((e) => /^svc\d+$/.test(e.name) || /^svc\d+\.example\.com$/.test(e.name))
      .length;
  return { cycle, clock, held };
}

describe('what the containers names cost', () => {
  it('a burst of 20 starts: one listing and one create per name; then nothing while nothing changes', async () => {
    const { cycle, held } = agent();
    const burst = Array.from({ length: 20 }, (_, i) => service(i));
    const first = await cycle(burst);
    expect(first.exitCode).toBe(0);
    expect(calls(first.state)).toBe(21);
    expect(held()).toBe(20);
    const steady = await cycle(burst);
    expect(calls(steady.state)).toBe(21);
  });

  it('containers that flap within their grace spend no call', async () => {
    const { cycle, clock } = agent();
    const first = await cycle([service(1)]);
    expect(calls(first.state)).toBe(2);
    let last = first;
    for (let i = 0; i < 30; i++) {
      clock.advance(5_000);
      last = await cycle(i % 2 ? [service(1)] : []);
    }
    expect(calls(last.state)).toBe(2);
  });

  it('a budget smaller than the burst stops at its limit, and the rest follow when calls resume', async () => {
    const { cycle, clock, held } = agent(10);
    const burst = Array.from({ length: 20 }, (_, i) => service(i));
    const first = await cycle(burst);
    // Some written, the rest held back by the budget: partial, as with DDEDGE_HOSTS.
    expect(first.exitCode).toBe(5);
    expect(calls(first.state)).toBe(10);
    expect(first.outcomes.filter((o) => o.action === 'failed').map((o) => o.message)).toHaveLength(11);
    expect(held()).toBe(9);
    clock.advance(61 * 60_000);
    const next = await cycle(burst);
    expect(held()).toBe(18);
    expect(next.exitCode).toBe(5);
  });

  it('shares a budget too small for every name between the containers: one with 20 names cannot starve another', async () => {
    const { cycle } = agent(10);
    const greedy: ContainerSeen = {
      id: 'greedy',
      name: 'greedy',
      labels: { 'ddedge.hosts': Array.from({ length: 20 }, (_, i) => `a${i}.example.com`).join(',') },
    };
    const first = await cycle([greedy, service(1), service(2)]);
    const written = first.outcomes.filter((o) => o.action === 'updated').map((o) => o.host);
    expect(written).toHaveLength(9);
    expect(written).toEqual(expect.arrayContaining(['svc1.example.com', 'svc2.example.com']));
  });

  it('leaves the calls the hosts of DDEDGE_HOSTS need: containers that spend the hour cannot starve them', async () => {
    const { apiUser, apiPassword } = sandbox.credentials;
    const stateDir = tempDir();
    const configAt = (ip: string) =>
      loadConfig({
        flags: {
          ip,
          service: 'example.com',
          containers: 'unix:///run/test.sock',
          'state-dir': stateDir,
          'max-calls-per-hour': '10',
        },
        env: {
          DDEDGE_API_URL: sandbox.url,
          DDEDGE_API_USER: apiUser,
          DDEDGE_API_PASSWORD: apiPassword,
          DDEDGE_HOSTS: 'home.example.com',
        },
        purpose: 'cycle',
      });
    const clock = new FakeClock(Date.now());
    const run = (ip: string, running: ContainerSeen[], only: boolean) => {
      const config = configAt(ip);
      return runCycle({
        config,
        logger: silentLogger,
        now: () => new Date(clock.now()),
        containers: { ...listedContainerNames(config, silentLogger, clock, running), only },
      });
    };
    const first = await run('81.0.2.15', [], false);
    const spent = calls(first.state);
    // A hostile container comes back again and again with 20 new names.
    for (let round = 0; round < 3; round++) {
      clock.advance(60_000);
      await run(
        '81.0.2.15',
        Array.from({ length: 20 }, (_, i) => service(round * 20 + i)),
        true,
      );
    }
    clock.advance(60_000);
    const moved = await run('81.0.2.16', [], false);
    const home = moved.outcomes.find((o) => o.host === 'home.example.com');
    expect(home?.action, home?.message).toBe('updated');
    expect(calls(moved.state)).toBeLessThanOrEqual(10);
    expect(spent).toBeGreaterThan(0);
  });

  it('never writes the API password: not in the debug log, not in the state directory', async () => {
    const { apiUser, apiPassword } = sandbox.credentials;
    const stateDir = tempDir();
    const config = loadConfig({
      flags: { ip: '81.0.2.15', service: 'example.com', containers: 'unix:///run/t.sock', 'state-dir': stateDir },
      env: { DDEDGE_API_URL: sandbox.url, DDEDGE_API_USER: apiUser, DDEDGE_API_PASSWORD: apiPassword },
      purpose: 'cycle',
    });
    const log: string[] = [];
    const logger = createLogger({ level: 'debug', format: 'text', write: (t) => log.push(t) });
    const clock = new FakeClock(Date.now());
    const hostile: ContainerSeen = {
      id: 'c0ffee0123456789',
      name: 'evil',
      labels: { 'ddedge.hosts': `${apiPassword}.example.com,bad_name.example.com`, 'ddedge.target': 'x.example.net' },
    };
    for (const running of [[service(1), hostile], [service(2)], []]) {
      await runCycle({
        config,
        logger,
        now: () => new Date(clock.now()),
        containers: { ...listedContainerNames(config, logger, clock, running), only: true },
      });
      clock.advance(11 * 60_000);
    }
    expect(log.join('\n')).toContain('svc1.example.com');
    expect(log.join('\n')).not.toContain(apiPassword);
    for (const file of readdirSync(stateDir))
      expect(readFileSync(join(stateDir, file), 'utf8')).not.toContain(apiPassword);
  });
});
