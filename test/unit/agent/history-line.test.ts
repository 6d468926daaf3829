// `status --history`'s line of an entry: a record's first entry reads "first sent"; a field a
// history written by hand or by another version left out reads "-", as on the status page, never
// "undefined".
import { expect, it } from 'vitest';
import { historyLine } from '../../../src/agent/history-view.js';

const at = '2026-11-01T00:00:00.000Z';

it('says first sent for an entry with no old address, and old -> new for one with it', () => {
  const first = { at, host: 'h.example.com', type: 'A' as const, event: 'changed' as const, new: '81.0.2.15' };
  expect(historyLine({ ...first, via: 'dyndns' })).toBe(`${at} h.example.com A first sent 81.0.2.15 via dyndns`);
  expect(historyLine({ ...first, old: '81.0.2.14', via: 'api' })).toBe(
    `${at} h.example.com A changed 81.0.2.14 -> 81.0.2.15 via api`,
  );
});

it('shows a change whose new address or way is missing with "-", not "undefined"', () => {
  const row = { at, host: 'h.example.com', type: 'A' as const, event: 'changed' as const };
  expect(historyLine(row)).toBe(`${at} h.example.com A first sent - via -`);
  expect(historyLine({ ...row, old: '81.0.2.14' })).toBe(`${at} h.example.com A changed 81.0.2.14 -> - via -`);
});
