// `npm install` in a fresh clone (the README's quick start) must leave the checkout as it was:
// a lockfile whose root entry differs from package.json is rewritten by npm, and the user sees
// a change they did not make (found by a trial: the `ddedge-acme` bin was missing from it).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (file: string) =>
  JSON.parse(readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;

describe('package-lock.json', () => {
  it("records package.json's name, version, bins, engines and dependencies at its root", () => {
    const pkg = read('package.json');
    const root = (read('package-lock.json').packages as Record<string, Record<string, unknown>>)[''];
    for (const field of [
      'name',
      'version',
      'bin',
      'engines',
      'dependencies',
      'devDependencies',
      'optionalDependencies',
      'peerDependencies',
    ]) {
      expect(root?.[field], field).toEqual(pkg[field]);
    }
  });
});
