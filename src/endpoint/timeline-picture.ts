// The 30-day picture of each record: a bar per record, coloured by the address it held, with
// failures marked below it. Plain inline SVG with classes (no style attributes: the page's CSP
// allows only its own stylesheet), and a text alternative for screen readers that says what
// the picture shows; the history table below it has every detail.
import type { RecordTimeline } from '../agent/timeline-view.js';
import { TIMELINE_DAYS } from '../agent/timeline-view.js';
import { escapeHtml } from './html.js';

const WIDTH = 600;
const BAR = 14;
const ROW = 40;
const LABEL = 16;
/** Colours cycle through this many classes (.tl0 … in the stylesheet). */
const PALETTE = 4;

export function timelinePicture(timeline: { start: number; end: number; records: RecordTimeline[] }): string {
  if (!timeline.records.length) return '';
  const x = (t: number) => ((t - timeline.start) / (timeline.end - timeline.start)) * WIDTH;
  const height = timeline.records.length * ROW + 18;
  const parts: string[] = [];
  timeline.records.forEach((record, i) => {
    const top = i * ROW;
    parts.push(`<text x="0" y="${top + 12}" class="tl-label">${escapeHtml(`${record.host} ${record.type}`)}</text>`);
    parts.push(`<rect x="0" y="${top + LABEL}" width="${WIDTH}" height="${BAR}" class="tl-none"/>`);
    // One path per colour, not a rect per span: a record that changed every day for a month
    // stays a few hundred bytes (the page's size is measured with 50 such records).
    const colours = new Map<string, number>();
    const paths = Array.from({ length: PALETTE }, () => '');
    for (const span of record.addresses) {
      if (!colours.has(span.address)) colours.set(span.address, colours.size % PALETTE);
      paths[colours.get(span.address)!] += box(x(span.from), top + LABEL, Math.max(1, x(span.to) - x(span.from)), BAR);
    }
    paths.forEach((d, c) => d && parts.push(`<path d="${d}" class="tl${c}"/>`));
    const failed = record.failures.map((span) => box(x(span.from), top + LABEL + BAR + 1, Math.max(2, x(span.to) - x(span.from)), 4)).join('');
    if (failed) parts.push(`<path d="${failed}" class="tl-fail"/>`);
  });
  parts.push(`<text x="0" y="${height - 2}" class="tl-axis">${TIMELINE_DAYS} days ago</text><text x="${WIDTH}" y="${height - 2}" class="tl-axis" text-anchor="end">now</text>`);
  const summary = timeline.records
    .map((r) => `${r.host} ${r.type}: ${r.addresses.length} address${r.addresses.length === 1 ? '' : 'es'}${r.failures.length ? `, failing ${r.failures.length} time${r.failures.length === 1 ? '' : 's'}` : ''}`)
    .join('; ');
  return `<figure class="timeline">
<svg viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${escapeHtml(`Last ${TIMELINE_DAYS} days. ${summary}`)}" preserveAspectRatio="xMinYMin meet">${parts.join('')}</svg>
<figcaption class="muted">Last ${TIMELINE_DAYS} days: each colour is one address; red marks below a bar are failures. The table below has every entry with its time.</figcaption>
</figure>`;
}

/** A rectangle as path data, to one decimal. */
const box = (x: number, y: number, w: number, h: number): string => `M${x.toFixed(1)} ${y}h${w.toFixed(1)}v${h}h-${w.toFixed(1)}z`;
