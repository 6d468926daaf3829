// A notifier's failure names the service as its prefix does ("ntfy at HOST"), once: never the
// URL (a secret), and never a masked stand-in for it that hides what the prefix shows.
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/lib/log.js';
import { redact } from '../../../src/lib/redact.js';
import { Notifier } from '../../../src/notify/notifier.js';
import { freePort } from '../../helpers/programs.js';

describe("a notifier's delivery errors", () => {
  it('say the service could not be reached, with no URL and nothing masked', async () => {
    const port = await freePort();
    const notifier = new Notifier(
      [`http://127.0.0.1:${port}/hook-tk_secret1234`, `ntfy+http://127.0.0.1:${port}/topic-tk_secret5678`],
      silentLogger,
    );
    const results = await notifier.test({ event: 'test', time: new Date(0).toISOString(), message: 'test' });
    expect(results.map((r) => `${r.target}: ${redact(r.detail)}`)).toEqual([
      `webhook at 127.0.0.1:${port}: cannot reach the service: nothing answers at 127.0.0.1:${port} (ECONNREFUSED)`,
      `ntfy at 127.0.0.1:${port}: cannot reach the service: nothing answers at 127.0.0.1:${port} (ECONNREFUSED)`,
    ]);
  });
});
