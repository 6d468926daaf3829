import { describe, expect, it } from 'vitest';
import { timelinePicture } from '../../../src/agent/timeline-picture.js';

const DAY = 86_400_000;
const end = Date.parse('2026-12-02T00:00:00Z');
const start = end - 30 * DAY;

describe('the 30-day picture', () => {
  it('on a fresh install, with nothing sent and nothing failed, says so instead of drawing empty bars', () => {
    const html = timelinePicture({
      start,
      end,
      records: [{ host: 'home.example.com', type: 'A', addresses: [], failures: [] }],
    });
    expect(html).not.toContain('<svg');
    expect(html).toContain('starts with the first address sent or the first failure: nothing yet');
  });

  it('draws as soon as one record has an address or a failure', () => {
    const withAddress = timelinePicture({
      start,
      end,
      records: [
        {
          host: 'home.example.com',
          type: 'A',
          addresses: [{ address: '81.0.2.1', from: end - DAY, to: end }],
          failures: [],
        },
        { host: 'nas.example.com', type: 'A', addresses: [], failures: [] },
      ],
    });
    expect(withAddress).toContain('<svg');
    const withFailure = timelinePicture({
      start,
      end,
      records: [{ host: 'home.example.com', type: 'A', addresses: [], failures: [{ from: end - DAY, to: end }] }],
    });
    expect(withFailure).toContain('class="tl-fail"');
  });

  it('draws nothing without records', () => {
    expect(timelinePicture({ start, end, records: [] })).toBe('');
  });
});
