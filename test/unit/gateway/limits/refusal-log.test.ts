// The refusal log's bound: 30 lines a minute, then one line saying how many were not logged.
import { describe, expect, it } from 'vitest';
import { RefusalLog, REFUSALS_LOGGED_PER_MINUTE } from '../../../../src/gateway/limits/refusal-log.js';
import { createLogger } from '../../../../src/lib/log.js';

describe('RefusalLog', () => {
  it('logs up to its bound a minute, counts the rest, escapes what the client sent', () => {
    const lines: string[] = [];
    let now = 1_000_000;
    const log = new RefusalLog(createLogger({ level: 'warn', format: 'text', write: (l) => lines.push(l) }), () => now);
    for (let i = 0; i < REFUSALS_LOGGED_PER_MINUTE + 12; i++)
      log.refused('REFUSED', { zone: 'example.com', key: 'k\nforged: line', client: '192.0.2.1' }, 'outside the grant');
    expect(lines).toHaveLength(REFUSALS_LOGGED_PER_MINUTE);
    expect(lines.every((l) => !l.includes('\nforged'))).toBe(true);
    now += 60_000;
    log.refused('REFUSED', { client: '192.0.2.1' }, 'unsigned');
    expect(lines.at(-2)).toMatch(/12 more refused updates or transfers in the last minute were not logged/);
    expect(lines.at(-1)).toMatch(/update unsigned, from 192\.0\.2\.1: REFUSED: unsigned/);
  });

  it('tells its observer a key only when its signature verified; a claimed name stays in the log alone', () => {
    const lines: string[] = [];
    const origins: unknown[] = [];
    const log = new RefusalLog(
      createLogger({ level: 'warn', format: 'text', write: (l) => lines.push(l) }),
      () => 1_000_000,
      (origin) => origins.push(origin),
    );
    log.refused('NOTAUTH/BADKEY', { key: '<!channel>', client: '127.0.0.1', kind: 'request' }, 'unknown key');
    log.refused('REFUSED', { zone: 'example.com', key: 'router', verified: true, client: '192.0.2.1' }, 'grant');
    expect(origins).toEqual([{ client: '127.0.0.1' }, { key: 'router', zone: 'example.com', client: '192.0.2.1' }]);
    expect(lines[0]).toContain('key <!channel>');
  });
});
