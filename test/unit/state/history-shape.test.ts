// Every field of a history entry is checked on reading: a file that parses but holds a time that
// is not one, an address that is not one, a host that is not a host name or a text beyond any
// the writer makes is damage (reported, naming the field and never its value), never shown.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHistory } from '../../../src/state/history.js';
import { tempDir } from '../../helpers/cli.js';

const GOOD = {
  at: '2026-01-01T00:00:00.000Z',
  host: 'home.example.com',
  type: 'AAAA',
  event: 'failed',
  message: 'the provider refused it',
  reason: 'refused',
  count: 3,
  lastAt: '2026-01-01T00:10:00Z',
};
const CHANGED = { at: '2026-01-01T00:00:00Z', host: 'home.example.com', type: 'A', event: 'changed', via: 'api' };

function read(entry: Record<string, unknown>) {
  const dir = tempDir('ddedge-history-');
  writeFileSync(join(dir, 'history.json'), JSON.stringify({ version: 1, entries: [entry] }));
  return readHistory(dir);
}

describe('a history entry, field by field', () => {
  it('takes every field the writer writes', () => {
    expect(read(GOOD).damage).toBeUndefined();
    expect(read({ ...CHANGED, old: '81.0.2.15', new: '81.0.2.16' }).damage).toBeUndefined();
    expect(read({ ...CHANGED, type: 'AAAA', new: '2001:db8::1' }).damage).toBeUndefined();
    expect(read({ ...CHANGED, new: '(server)' }).damage).toBeUndefined();
    expect(
      read({ at: '2026-01-01T00:00:00Z', host: 'home.example.com', type: 'A', event: 'recovered' }).damage,
    ).toBeUndefined();
  });

  it.each([
    ['a time that is not one', { ...GOOD, at: 'yesterday' }, 'entries[0].at is not a time'],
    ['a time that is no date', { ...GOOD, at: '2026-13-45T99:00:00Z' }, 'entries[0].at is not a time'],
    ['a last time that is not one', { ...GOOD, lastAt: 'x' }, 'entries[0].lastAt is not a time'],
    ['a new address that is not one', { ...CHANGED, new: '<b>5</b>' }, 'entries[0].new is not an IP address'],
    ['an old address that is not one', { ...CHANGED, old: 'zz', new: '81.0.2.15' }, 'entries[0].old is not'],
    ['a number for the new address', { ...CHANGED, new: 5 }, 'entries[0].new is not'],
    ['a host that is not a host name', { ...GOOD, host: 'not a host <script>' }, 'entries[0].host is not a host name'],
    ['an empty host', { ...GOOD, host: '' }, 'entries[0].host is not a host name'],
    ['a message beyond any kept', { ...GOOD, message: 'x'.repeat(5000) }, 'entries[0].message is not'],
    ['a count beyond any cycle count', { ...GOOD, count: 1e300 }, 'entries[0].count is not'],
  ])('%s is damage, said by the field', (_what, entry, reason) => {
    const loaded = read(entry);
    expect(loaded.damage).toContain(`history.json is damaged (${reason}`);
    expect(loaded.history.entries).toEqual([]);
    expect(loaded.damage).not.toMatch(/yesterday|<b>|<script>|xxxx/);
  });
});
