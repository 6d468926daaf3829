// A record the provider refused waits for its backoff; the page says until when in its own format
// (UTC, to the second, as every other time on it), not as an ISO string.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { agentPageView } from '../../../src/agent/page-view.js';
import { writeState } from '../../../src/state/state.js';
import { tempDir } from '../../helpers/cli.js';

describe("the agent page's waiting record", () => {
  it('says when the next attempt is as the page writes times', () => {
    const stateDir = tempDir();
    const config = loadConfig({
      flags: {},
      env: {
        DDEDGE_DYNDNS_USER: 'u',
        DDEDGE_DYNDNS_KEY: 'k',
        DDEDGE_HOSTS: 'home.example.com',
        DDEDGE_STATE_DIR: stateDir,
      },
      purpose: 'state',
      isRoot: false,
    });
    writeState(stateDir, {
      version: 1,
      records: {
        'home.example.com/A': {
          host: 'home.example.com',
          type: 'A',
          lastError: 'refused: nohost',
          lastErrorAt: '2026-12-02T05:00:00.000Z',
          backoff: { failures: 2, until: '2026-12-02T05:30:00.000Z', exitCode: 3, config: 'x' },
        },
      },
    });
    const view = agentPageView(config, 1, new Date('2026-12-02T05:10:00.000Z'));
    expect(view.problems).toEqual([]);
    const [record] = view.records;
    expect(record?.status).toBe('waiting');
    expect(record?.reason).toContain('next attempt after 2026-12-02 05:30:00');
    expect(record?.reason).not.toContain('T05:30');
  });
});
