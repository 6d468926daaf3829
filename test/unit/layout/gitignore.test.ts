// What the docs' recipes (README.md, docs/*.md) write into the folder they run in (a checkout,
// most often): keys, key files and configurations holding a secret, logs; and what `npm pack`
// leaves there. None of it may end up in a commit by a `git add .`: each is named by
// .gitignore. The files are read off the recipes themselves, so a recipe that writes a new one
// is checked too.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { docPage, docPages, REPO } from '../../helpers/readme-recipes.js';

const inGit =
  spawnSync('git', ['-C', REPO, 'rev-parse', '--is-inside-work-tree'], { encoding: 'utf8' }).stdout.trim() === 'true';

/** The relative file names the docs' recipe blocks write with `>` or `>>` (heredocs included). */
function filesRecipesWrite(): string[] {
  const readme = docPages().map(docPage).join('\n');
  const names = new Set<string>();
  for (const block of readme.matchAll(/<!-- recipe: [\w-]+ -->\n```(?:sh|bash)\n([\s\S]*?)^```$/gm)) {
    for (const [, name] of block[1]!.matchAll(/>>?\s*([\w.-]+)(?=[\s)&;]|$)/gm)) names.add(name!);
  }
  return [...names].sort();
}

/** The names git would ignore of those given (as if each were in the checkout's top folder). */
function ignored(names: string[]): string[] {
  const run = spawnSync('git', ['-C', REPO, 'check-ignore', '--no-index', '--stdin'], {
    input: names.join('\n') + '\n',
    encoding: 'utf8',
  });
  return run.stdout.split('\n').filter(Boolean).sort();
}

describe.skipIf(!inGit)('.gitignore', () => {
  it("names every file the docs' recipes write into the folder they run in", () => {
    const written = filesRecipesWrite();
    // The recipes' secrets: the container's key file, the keys, the clients' configurations.
    expect(written).toEqual(
      expect.arrayContaining(['dyndns-key', 'acme.key', 'gateway.keys', 'ddclient.conf', 'inadyn.conf', 'sandbox.log']),
    );
    expect(ignored(written)).toEqual(written);
  });

  it('names what npm pack leaves', () => {
    expect(ignored(['ddedge-0.1.0.tgz', 'ddedge-12.3.4-rc.1.tgz'])).toEqual([
      'ddedge-0.1.0.tgz',
      'ddedge-12.3.4-rc.1.tgz',
    ]);
  });
});
