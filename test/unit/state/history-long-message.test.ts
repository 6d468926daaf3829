// The longest failure text the history keeps reads back as it was written: the reader's bound on a
// text sits above the writer's cut, its "… (N more characters)" included.
import { describe, expect, it } from 'vitest';
import { outsideText } from '../../../src/lib/outside-text.js';
import { HISTORY_LIMITS, readHistory, writeHistory } from '../../../src/state/history.js';
import { tempDir } from '../../helpers/cli.js';

describe('a long failure in the history', () => {
  it('is kept cut at the writer’s bound and read back undamaged', () => {
    const dir = tempDir('ddedge-history-');
    const message = outsideText(`the provider said: ${'x'.repeat(5000)}`, HISTORY_LIMITS.messageChars);
    expect(message.length).toBeGreaterThan(HISTORY_LIMITS.messageChars);
    writeHistory(dir, {
      version: 1,
      entries: [
        {
          at: '2026-12-01T00:00:00.000Z',
          host: 'home.example.com',
          type: 'A',
          event: 'failed',
          message,
          reason: 'refused',
          count: 1,
        },
      ],
    });
    const { history, damage } = readHistory(dir);
    expect(damage).toBeUndefined();
    expect(history.entries[0]!.message).toBe(message);
  });
});
