// The daemon's watch over the DNS-PERSIST-01 records `acme persist` keeps: silent until 14 days
// before persistUntil, then one persist-expiring notification (and a log warning) per
// persistUntil; a new persistUntil arms it again; the status page shows the records and warns.
import { describe, expect, it } from 'vitest';
import { keepPersistRecord } from '../../../src/acme/persist.js';
import { persistExpiryNotices } from '../../../src/agent/persist-watch.js';
import { renderAgentPage } from '../../../src/agent/status-page.js';
import { agentPageView } from '../../../src/agent/page-view.js';
import { loadConfig } from '../../../src/config/load.js';
import { createLogger } from '../../../src/lib/log.js';
import { eventDocument, titleOf } from '../../../src/notify/message.js';
import { readPersisted } from '../../../src/state/acme-persisted.js';
import { tempDir } from '../../helpers/cli.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { MemoryZone } from '../../helpers/memory-zone.js';

const DAY = 86_400_000;
const ACCOUNT = 'https://acme.example/acme/acct/42';
/** 2027-01-31T00:00:00Z */
const UNTIL = Date.UTC(2027, 0, 31) / 1000;

async function kept(stateDir: string, persistUntil = UNTIL) {
  const logger = createLogger({ level: 'error', format: 'text', write: () => {} });
  await keepPersistRecord(
    { provider: new MemoryZone(), stateDir, logger },
    {
      domain: 'example.com',
      name: '_validation-persist.example.com',
      service: 'example.com',
      issuer: 'letsencrypt.org',
      accountUri: ACCOUNT,
      wildcard: true,
      persistUntil,
    },
  );
}

function watcher(stateDir: string, clock: FakeClock) {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', format: 'text', write: (line) => void lines.push(line) });
  return { lines, check: () => persistExpiryNotices(stateDir, new Date(clock.now()), logger) };
}

describe("the daemon's warning before persistUntil", () => {
  it('is silent until 14 days before, then tells once; a new persistUntil arms it again', async () => {
    const stateDir = tempDir('ddedge-persist-watch-');
    await kept(stateDir);
    const clock = new FakeClock(UNTIL * 1000 - 15 * DAY);
    const watch = watcher(stateDir, clock);
    expect(await watch.check()).toEqual([]);

    clock.advance(DAY + 1);
    const events = await watch.check();
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event).toMatchObject({ event: 'persist-expiring', host: 'example.com', new: '2027-01-31T00:00:00Z' });
    expect(event!.message).toBe(
      '_validation-persist.example.com: the DNS-PERSIST-01 record: letsencrypt.org stops accepting it at ' +
        `2027-01-31T00:00:00Z, in 13 days; extend it: ddedge acme persist example.com --issuer letsencrypt.org ` +
        `--account-uri ${ACCOUNT} --wildcard --until TIME`,
    );
    expect(titleOf(event!)).toBe('ddedge: DNS-PERSIST-01 record expiring (example.com)');
    expect(eventDocument(event!)).toMatchObject({ event: 'persist-expiring', host: 'example.com', type: null });
    expect(watch.lines.join('')).toContain('stops accepting it');

    clock.advance(7 * DAY);
    expect(await watch.check()).toEqual([]);
    expect(readPersisted(stateDir).records[0]!.warnedFor).toBe(UNTIL);

    await kept(stateDir, UNTIL + (3 * DAY) / 1000);
    expect(await watch.check()).toHaveLength(1);
  });

  it('tells of a record whose persistUntil has passed', async () => {
    const stateDir = tempDir('ddedge-persist-watch-');
    await kept(stateDir);
    const clock = new FakeClock(UNTIL * 1000 + DAY);
    const [event] = await watcher(stateDir, clock).check();
    expect(event!.message).toContain('letsencrypt.org refuses it since 2027-01-31T00:00:00Z (persistUntil has passed)');
  });

  it('the status page lists the records and warns of one that expires within 14 days', async () => {
    const stateDir = tempDir('ddedge-persist-watch-');
    await kept(stateDir);
    const config = loadConfig({
      flags: {},
      env: {
        DDEDGE_STATE_DIR: stateDir,
        DDEDGE_HOSTS: 'home.example.com',
        DDEDGE_DYNDNS_USER: 'u',
        DDEDGE_DYNDNS_KEY: 'k',
      },
      purpose: 'cycle',
    });
    const far = agentPageView(config, 1, new Date(UNTIL * 1000 - 30 * DAY));
    expect(far.persisted).toMatchObject([{ name: '_validation-persist.example.com', status: 'valid' }]);
    const farPage = renderAgentPage(far, { nonce: 'n', csrf: 'c' });
    expect(farPage).toContain('DNS-PERSIST-01 records');
    expect(farPage).not.toContain('role="alert">_validation-persist');

    const near = agentPageView(config, 1, new Date(UNTIL * 1000 - 2 * DAY));
    expect(near.persisted).toMatchObject([{ status: 'expiring' }]);
    expect(renderAgentPage(near, { nonce: 'n', csrf: 'c' })).toContain(
      'role="alert">_validation-persist.example.com: letsencrypt.org stops accepting it at 2027-01-31T00:00:00Z, in 2 days',
    );

    const none = agentPageView({ ...config, stateDir: tempDir('ddedge-empty-') }, 1, new Date());
    expect(none.persisted).toBeUndefined();
  });
});
