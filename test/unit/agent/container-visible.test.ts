// Which container a name came from, where people look: `ddedge status` (text and JSON), the
// daemon's /status and status page, and the history's line for a name that came and went.
import { describe, expect, it } from 'vitest';
import { runCycle } from '../../../src/agent/cycle.js';
import { agentAnswer } from '../../../src/agent/endpoint-answers.js';
import { agentPageView } from '../../../src/agent/page-view.js';
import { renderAgentPage } from '../../../src/agent/status-page.js';
import { loadConfig } from '../../../src/config/load.js';
import { silentLogger } from '../../../src/lib/log.js';
import { runMain, tempDir } from '../../helpers/cli.js';
import { MemoryZone } from '../../helpers/memory-zone.js';

async function agentWithNames() {
  const dir = tempDir();
  const config = loadConfig({
    flags: { ip: '81.0.2.15', service: 'example.com', containers: 'unix:///run/test.sock', 'state-dir': dir },
    env: { DDEDGE_API_USER: 'u', DDEDGE_API_PASSWORD: 'p-123456' },
    purpose: 'cycle',
  });
  const zone = new MemoryZone([]);
  const at = Date.UTC(2026, 0, 1, 12);
  const cycle = (wanted: Parameters<typeof runCycle>[0]['containers'] extends infer C ? C : never) =>
    runCycle({ config, logger: silentLogger, now: () => new Date(at), containers: wanted });
  await cycle({
    wanted: [
      { name: 'cloud.example.com', containers: ['container nextcloud (3f2a01)'] },
      {
        name: 'git.example.com',
        containers: ['container gitea (77aa02)'],
        target: 'home.example.com',
        heldUntil: at + 60_000,
      },
    ],
    zones: ['example.com'],
    zoneProvider: () => zone,
  });
  return { dir, config, cycle, zone };
}

describe('where a container name came from', () => {
  it('is said by status, in text and JSON', async () => {
    const { dir } = await agentWithNames();
    const text = await runMain(['status', '--state-dir', dir], {});
    expect(text.stdout).toContain(
      'cloud.example.com A 81.0.2.15 sent 2026-01-01T12:00:00.000Z via api (from container nextcloud (3f2a01))',
    );
    expect(text.stdout).toContain(
      'git.example.com CNAME home.example.com sent 2026-01-01T12:00:00.000Z via api (from container gitea (77aa02); stopped, kept until 2026-01-01T12:01:00.000Z)',
    );
    const json = JSON.parse((await runMain(['status', '--json', '--state-dir', dir], {})).stdout);
    expect(json.containers).toEqual([
      expect.objectContaining({ name: 'cloud.example.com', containers: ['container nextcloud (3f2a01)'] }),
      expect.objectContaining({ name: 'git.example.com', target: 'home.example.com', cname: expect.any(Object) }),
    ]);
  });

  it('is on the status page and in /status', async () => {
    const { config } = await agentWithNames();
    const view = agentPageView(config, 1, new Date(Date.UTC(2026, 0, 1, 12, 0, 30)));
    expect(view.records).toEqual([
      expect.objectContaining({
        host: 'cloud.example.com',
        type: 'A',
        from: 'from container nextcloud (3f2a01)',
        status: 'up to date',
      }),
      expect.objectContaining({
        host: 'git.example.com',
        type: 'CNAME',
        address: 'home.example.com',
        status: 'up to date',
      }),
    ]);
    const html = renderAgentPage(view, { nonce: 'n0nce', csrf: 'f0rm' });
    expect(html).toContain('from container nextcloud (3f2a01)');
    expect(html).toContain('Name given: cloud.example.com: given by container nextcloud (3f2a01)');
    const status = JSON.parse(agentAnswer('/status', config).body as string);
    expect(status.containers.map((c: { name: string }) => c.name)).toEqual(['cloud.example.com', 'git.example.com']);
  });

  it('is in the history, with when the name came and went', async () => {
    const { dir, cycle, zone } = await agentWithNames();
    await cycle({ wanted: [], zones: ['example.com'], zoneProvider: () => zone });
    const history = (await runMain(['status', '--history', '--state-dir', dir], {})).stdout;
    expect(history).toMatch(
      /cloud\.example\.com A added: cloud\.example\.com: given by container nextcloud \(3f2a01\)/,
    );
    expect(history).toMatch(
      /git\.example\.com CNAME removed: git\.example\.com: let go, no running container gives it/,
    );
    expect(zone.held()).toEqual([]);
  });
});
