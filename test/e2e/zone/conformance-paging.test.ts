// The conformance suite's paging group: a zone of 10,000 entries, past the 8 pages
// that once stopped every listing, built and changed in steps from an empty zone in the
// sandbox. Each step changes something, its read-back matches the file, and the plan that
// follows changes nothing; the calls each takes are counted as the provider would see them.
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { emptyZone, writeZone, zoneMain } from '../../helpers/zone.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const ZONE = 'paging.example';
const COUNT = 10_000;
const sandbox = useSandbox({ per: 'file' });

const host = (i: number, ttl = '') =>
  i % 5 === 4
    ? `h${i} ${ttl}TXT "record ${i} of ${COUNT}"`
    : `h${i} ${ttl}A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
const all = Array.from({ length: COUNT }, (_, i) => host(i));

interface Step {
  name: string;
  lines: string[];
  summary: Partial<Record<'create' | 'update' | 'delete', number>>;
  method: 'calls' | 'setzone';
  /** Write calls, by operation. */
  writes: Record<string, number>;
  /** service/dnslist calls: the plan's listing, a replace's second read, the read-back (1,000 entries a page). */
  lists: number;
}

const STEPS: Step[] = [
  {
    name: '10,000 records into an empty zone: one dnssetzone',
    lines: all,
    summary: { create: COUNT },
    method: 'setzone',
    writes: { 'service/dnssetzone': 1 },
    lists: 1 + 1 + 10,
  },
  {
    name: 'a TTL on three records past page 8, one gone from page 10: four calls, not a replace of 10,000',
    lines: all
      .map((l, i) => (i === 8_500 || i === 9_000 || i === 9_998 ? host(i, '600 ') : l))
      .filter((_, i) => i !== 9_999),
    summary: { update: 3, delete: 1, create: 0 },
    method: 'calls',
    writes: { 'service/dnsupdate': 3, 'service/dnsdelete': 1 },
    lists: 10 + 10,
  },
  {
    name: '2,000 records gone from the end (20%): a replace, as the calls would be more than its reads',
    lines: all.slice(0, 8_000),
    summary: { delete: 1_999, update: 0 },
    method: 'setzone',
    writes: { 'service/dnssetzone': 1 },
    lists: 10 + 10 + 8,
  },
];

describe('conformance: 10,000-entry paging', () => {
  it('every step changes something, reads back as the file, and the plan after it changes nothing', async () => {
    emptyZone(sandbox, ZONE);
    const env = { DDEDGE_SERVICE: ZONE, DDEDGE_STATE_DIR: tempDir('ddedge-state-') };
    for (const step of STEPS) {
      const file = writeZone(`$ORIGIN ${ZONE}.\n${step.lines.join('\n')}\n`);
      sandbox.calls.clear();
      const applied = await zoneMain(sandbox, ['apply', file, '--json'], env);
      expect(applied.code, `${step.name}: ${applied.stderr}`).toBe(0);
      const report = JSON.parse(applied.stdout);
      expect(report, step.name).toMatchObject({ method: step.method, summary: step.summary, drift: [] });
      expect(Object.fromEntries(sandbox.calls), step.name).toEqual({ ...step.writes, 'service/dnslist': step.lists });
      sandbox.calls.clear();
      const again = await zoneMain(sandbox, ['plan', file, '--expect-no-changes', '--json'], env);
      expect(again.code, `${step.name}: the second plan ${again.stderr}`).toBe(0);
      expect(JSON.parse(again.stdout).summary, step.name).toMatchObject({
        create: 0,
        update: 0,
        delete: 0,
        unchanged: step.lines.length,
      });
      expect(Object.fromEntries(sandbox.calls), step.name).toEqual({
        'service/dnslist': Math.ceil(step.lines.length / 1000),
      });
    }
  });
});
