// The command line has one parser and one help renderer, both ours: `ddedge --help` is made
// from the same command declarations that main() parses with, so a command, its description
// and its place in the list cannot differ between the help and what runs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderHelp } from '../../../src/cli/help.js';
import { COMMANDS } from '../../../src/cli/registry.js';
import { REPO, sourceFiles, SRC } from '../../helpers/source-tree.js';

const columns = Object.getOwnPropertyDescriptor(process.stdout, 'columns');
afterEach(() => {
  if (columns) Object.defineProperty(process.stdout, 'columns', columns);
  else delete (process.stdout as { columns?: number }).columns;
});

/** The top-level help as a terminal `width` columns wide would show it. */
async function helpAt(width: number): Promise<string> {
  Object.defineProperty(process.stdout, 'columns', { value: width, configurable: true, writable: true });
  return renderHelp();
}

describe('one command-line parser', () => {
  it('no source imports a third-party argument parser, and the package declares none', () => {
    const parsers = /from ['"](yargs|yargs\/[^'"]*|commander|minimist|meow|cac|sade|mri|arg)['"]/;
    const importing = sourceFiles(SRC).filter((file) => parsers.test(readFileSync(file, 'utf8')));
    expect(importing).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    const declared = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies });
    expect(
      declared.filter((name) => /^(@types\/)?(yargs|commander|minimist|meow|cac|sade|mri|arg)$/.test(name)),
    ).toEqual([]);
  });
});

describe('ddedge --help, made from the command declarations', () => {
  it.each([60, 80, 100, 110])(
    'at %i columns: every command in order, its description wrapped beside it',
    async (width) => {
      const text = await helpAt(width);
      const lines = text.split('\n');
      expect(lines[0]).toBe('ddedge <command> [options]');
      const start = lines.indexOf('Commands:') + 1;
      const end = lines.indexOf('', start);
      const rows = lines.slice(start, end);
      const column = Math.max(...COMMANDS.map((c) => `  ddedge ${c.name}`.length)) + 2;
      const names = rows
        .filter((line) => !line.startsWith(' '.repeat(column)))
        .map((line) => line.slice(0, column).trim());
      expect(names).toEqual(COMMANDS.map((c) => `ddedge ${c.name}`));
      for (const line of rows) {
        expect(line.length, line).toBeLessThanOrEqual(width);
        expect(line[column - 1], line).toBe(' ');
        expect(line[column], line).not.toBe(' ');
      }
      const described = rows.map((line) => line.slice(column)).join(' ');
      expect(described).toBe(COMMANDS.map((c) => c.describe).join(' '));
    },
  );

  it('--version is listed, and the sections follow in their order', async () => {
    const text = await helpAt(100);
    expect(text).toMatch(/\nOptions:\n {2}--version {2}Show version number +\[boolean\]\n\nExit codes:\n/);
    const order = [
      'Commands:',
      'Options:',
      'Exit codes:',
      'Settings (',
      'Built-in address sources:',
      'Run "ddedge <command> --help"',
    ];
    const at = order.map((head) => text.indexOf(head));
    expect(at.every((position) => position > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(text.endsWith('its own options.\n')).toBe(true);
  });
});
