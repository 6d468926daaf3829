#!/usr/bin/env node
// `npm run coverage`, after vitest has written coverage/coverage-summary.json: the figures per
// folder of src/ (each folder's own files, not its sub-folders'), the total, and the files no
// unit test reaches. A file no test reaches fails the run; the percentages never do, since
// they move with every change and a threshold on them would fail on noise.
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const summary = JSON.parse(readFileSync(join(root, 'coverage', 'coverage-summary.json'), 'utf8'));
const kinds = ['statements', 'branches', 'functions', 'lines'];

/** @returns {{ files: number, unreached: number } & Record<string, { total: number, covered: number }>} */
const emptyRow = () => ({
  files: 0,
  unreached: 0,
  ...Object.fromEntries(kinds.map((kind) => [kind, { total: 0, covered: 0 }])),
});

const folders = new Map();
const total = emptyRow();
const unreached = [];
for (const [path, figures] of Object.entries(summary)) {
  if (path === 'total') continue;
  const file = relative(root, path);
  const folder = dirname(file);
  if (!folders.has(folder)) folders.set(folder, emptyRow());
  // Reached: some statement ran (a file of types only has none, and nothing to reach).
  const missed = figures.statements.total > 0 && figures.statements.covered === 0;
  if (missed) unreached.push(file);
  for (const row of [folders.get(folder), total]) {
    row.files++;
    if (missed) row.unreached++;
    for (const kind of kinds) {
      row[kind].total += figures[kind].total;
      row[kind].covered += figures[kind].covered;
    }
  }
}

const percent = ({ total, covered }) => (total === 0 ? '-' : `${((100 * covered) / total).toFixed(1)}%`);
const header = ['folder', 'files', 'unreached', ...kinds];
const rows = [...folders.keys()].sort().map((folder) => [folder, folders.get(folder)]);
rows.push(['all of src/', total]);
const table = rows.map(([name, row]) => [
  name,
  String(row.files),
  String(row.unreached),
  ...kinds.map((kind) => percent(row[kind])),
]);
const widths = header.map((title, column) => Math.max(title.length, ...table.map((cells) => cells[column].length)));
const line = (cells) =>
  cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');

console.log(`\nCoverage of src/ by the unit tests (test/unit), per folder:\n`);
console.log(line(header));
for (const [index, cells] of table.entries()) {
  if (index === table.length - 1) console.log(line(widths.map((width) => '-'.repeat(width))));
  console.log(line(cells));
}
if (unreached.length > 0) {
  console.log(`\n${unreached.length} file(s) of src/ that no unit test reaches:`);
  for (const file of unreached) console.log(`  ${file}`);
  process.exitCode = 1;
}
