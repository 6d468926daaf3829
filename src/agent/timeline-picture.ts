// The 30-day picture of each record: a bar per record, coloured by the address it held, with
// failures marked below it. Plain inline SVG with classes (no style attributes: the page's CSP
// allows only its own stylesheet), and a text alternative for screen readers that says what
// the picture shows; the history table below it has every detail.
// Small by construction, since the page carries it for every record (50 records that changed
// every day for a month are a few kilobytes): an hour is one unit across, so every number is
// a whole one; each span is a stroked line (`M x y h width`), one path per colour for the
// whole picture, each move relative when that is shorter; the empty bars are one pattern.
import { escapeHtml } from '../probe/html.js';
import type { RecordTimeline } from './timeline-view.js';
import { TIMELINE_DAYS } from './timeline-view.js';

/** Hours in the 30 days: one unit each. */
const WIDTH = TIMELINE_DAYS * 24;
const BAR = 14;
const ROW = 40;
const LABEL = 16;
/** Colours cycle through this many classes (.tl0 … in the stylesheet). */
const PALETTE = 4;

export function timelinePicture(timeline: { start: number; end: number; records: RecordTimeline[] }): string {
  if (!timeline.records.length) return '';
  // A fresh install has nothing to draw: grey bars alone would read as thirty days of nothing sent.
  if (timeline.records.every((r) => !r.addresses.length && !r.failures.length))
    return (
      `<p class="muted">The picture of the last ${TIMELINE_DAYS} days starts with the first address sent or the ` +
      'first failure: nothing yet.</p>'
    );
  const x = (t: number) => Math.round(((t - timeline.start) / (timeline.end - timeline.start)) * WIDTH);
  const height = timeline.records.length * ROW + 18;
  const colours = Array.from({ length: PALETTE }, () => new PathData());
  const failures = new PathData();
  const labels: string[] = [];
  timeline.records.forEach((record, i) => {
    const top = i * ROW;
    labels.push(`<text y="${top + 12}">${escapeHtml(`${record.host} ${record.type}`)}</text>`);
    const seen = new Map<string, number>();
    const y = top + LABEL + BAR / 2;
    // The spans follow each other to the end: the first colour is painted once under all of
    // them, and the others over it, so the first colour's own spans need not be written.
    const first = record.addresses[0];
    if (first) colours[0]!.line(x(first.from), y, Math.max(1, WIDTH - x(first.from)));
    for (const span of record.addresses) {
      if (!seen.has(span.address)) seen.set(span.address, seen.size % PALETTE);
      const colour = seen.get(span.address)!;
      if (colour) colours[colour]!.line(x(span.from), y, Math.max(1, x(span.to) - x(span.from)));
    }
    for (const span of record.failures)
      failures.line(x(span.from), top + LABEL + BAR + 3, Math.max(2, x(span.to) - x(span.from)));
  });
  const paths =
    colours.map((d, c) => (d.text ? `<path d="${d.text}" class="tl${c}"/>` : '')).join('') +
    (failures.text ? `<path d="${failures.text}" class="tl-fail"/>` : '');
  // The empty bar behind every record, drawn once as a pattern repeated every ROW.
  const bars =
    `<pattern id="tl-bar" width="${WIDTH}" height="${ROW}" patternUnits="userSpaceOnUse"><rect ` +
    `y="${LABEL}" width="${WIDTH}" height="${BAR}" class="tl-none"/></pattern><rect width="${WIDTH}" ` +
    `height="${timeline.records.length * ROW}" fill="url(#tl-bar)"/>`;
  const axis =
    `<text y="${height - 2}" class="tl-axis">${TIMELINE_DAYS} days ago</text><text x="${WIDTH}" ` +
    `y="${height - 2}" class="tl-axis" text-anchor="end">now</text>`;
  const summary = timeline.records
    .map(
      (r) =>
        `${r.host} ${r.type}: ${r.addresses.length} ` +
        `address${r.addresses.length === 1 ? '' : 'es'}${
          r.failures.length ? `, ${r.failures.length} ` + `failure${r.failures.length === 1 ? '' : 's'}` : ''
        }`,
    )
    .join('; ');
  return (
    `<figure class="timeline">
<svg viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${escapeHtml(`Last ${TIMELINE_DAYS} days. ${summary}`)}` +
    `" preserveAspectRatio="xMinYMin meet">${bars}${labels.join('')}${paths}${axis}</svg>
<figcaption class="muted">Last ${TIMELINE_DAYS} days: each colour is one address; red marks below a bar are ` +
    `failures. The table below has every entry with its time.</figcaption>
</figure>`
  );
}

/** Path data of horizontal lines, the pen's position kept so that each move is written the shorter way. */
class PathData {
  text = '';
  private x = 0;
  private y = 0;

  line(x: number, y: number, width: number): void {
    const absolute = `M${x} ${y}`;
    const relative = `m${x - this.x} ${y - this.y}`;
    this.text += `${this.text && relative.length < absolute.length ? relative : absolute}h${width}`;
    this.x = x + width;
    this.y = y;
  }
}
