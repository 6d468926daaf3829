// The manual reads in one order, the front page's table of its pages: each page of docs/ ends
// with a "Next:" link to the page after it in that table (the last back to the front page), so a
// reader never ends at a dead end. A long page opens with its simple path (commands in a shell
// block), then a contents list whose links reach the page's own headings and name every section
// after it, then the details: the simple path is never buried under them.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf } from '../../helpers/markdown.js';
import { docPage, docPages, REPO } from '../../helpers/readme-recipes.js';

/** A page longer than this has a contents list. */
const LONG_PAGE_LINES = 200;

/** Pages another change restructures (their contents list and next link come with it). */
const RESTRUCTURED_ELSEWHERE = ['docs/performance.md'];

/** The pages of the manual in the front page's order (its table under "The manual"). */
function readingOrder(readme: string): string[] {
  const table = readme.slice(readme.indexOf('## The manual'));
  return [...table.matchAll(/^\| \[[^\]]+\]\((docs\/[\w-]+\.md)\)/gm)].map((m) => m[1]!);
}

/** The target of the page's "Next:" link, its last line, or undefined. */
function nextLink(markdown: string): string | undefined {
  const last = markdown.trimEnd().split('\n').at(-1) ?? '';
  return /^Next: \[[^\]]+\]\(([^)\s#]+)(?:#[^)\s]*)?\)/.exec(last)?.[1];
}

/** What is wrong with a long page's opening and contents list (nothing for a short page). */
function contentsProblems(markdown: string): string[] {
  const lines = markdown.split('\n');
  if (lines.length <= LONG_PAGE_LINES) return [];
  const at = markdown.search(/^## Contents$/m);
  if (at < 0) return [`${lines.length} lines and no "## Contents"`];
  const problems: string[] = [];
  if (!/^```(sh|bash)$/m.test(markdown.slice(0, at))) problems.push('no shell block (the simple path) before Contents');
  const after = markdown.slice(at + '## Contents'.length);
  const list = /^\n*((?:[ \t]*- \[[^\]]+\]\(#[^)]+\)\n)+)/.exec(after)?.[1];
  if (!list) return [...problems, '"## Contents" is not followed by a list of links'];
  const anchors = anchorsOf(markdown);
  const linked = [...list.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
  for (const anchor of linked)
    if (!anchors.has(anchor)) problems.push(`Contents links #${anchor}, no heading of the page`);
  const withoutCode = after.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
  for (const section of withoutCode.matchAll(/^## (.+)$/gm)) {
    const anchor = [...anchorsOf(`## ${section[1]}`)][0]!;
    if (!linked.includes(anchor)) problems.push(`Contents does not list "## ${section[1]}"`);
  }
  return problems;
}

describe('contentsProblems', () => {
  const long = (body: string) => `${body}\n${'\n'.repeat(LONG_PAGE_LINES)}`;
  const good =
    '# T\n\n```sh\nddedge update\n```\n\n## Contents\n\n- [One](#one)\n  - [Two `x`](#two-x)\n\n## One\n\n### Two `x`\n';

  it('accepts a short page as it is, and a long one with its simple path and a whole contents list', () => {
    expect(contentsProblems('# T\n\ntext\n')).toEqual([]);
    expect(contentsProblems(long(good))).toEqual([]);
  });

  it('names a missing list, a link to no heading, an unlisted section and a buried simple path', () => {
    expect(contentsProblems(long('# T\n\n## One\n'))).toEqual([`${LONG_PAGE_LINES + 5} lines and no "## Contents"`]);
    expect(contentsProblems(long(good.replace('(#one)', '(#none)')))).toEqual([
      'Contents links #none, no heading of the page',
      'Contents does not list "## One"',
    ]);
    expect(contentsProblems(long(`${good}\n## Three\n`))).toEqual(['Contents does not list "## Three"']);
    expect(contentsProblems(long(good.replace('```sh\nddedge update\n```\n', '')))).toEqual([
      'no shell block (the simple path) before Contents',
    ]);
  });
});

describe('nextLink', () => {
  it("reads the last line's link, and nothing when the page ends otherwise", () => {
    expect(nextLink('# T\n\nNext: [Running it](running.md), a timer or a container.\n')).toBe('running.md');
    expect(nextLink('Next: [the front page](../README.md#the-manual)\n\n')).toBe('../README.md');
    expect(nextLink('Next: [Running it](running.md)\n\nmore\n')).toBeUndefined();
  });
});

describe('the manual', () => {
  const order = readingOrder(docPage('README.md'));

  it("the front page's table names every page of docs/", () => {
    expect([...order].sort()).toEqual(docPages().filter((page) => page !== 'README.md'));
  });

  it.each(docPages().filter((page) => page !== 'README.md' && !RESTRUCTURED_ELSEWHERE.includes(page)))(
    '%s ends with a "Next:" link to the page after it, and a long page has its contents list',
    (page) => {
      const text = docPage(page);
      const next = nextLink(text);
      expect(next, `${page} does not end with "Next: [...](...)"`).toBeDefined();
      const target = resolve(REPO, dirname(page), next!);
      expect(existsSync(target), `${page}: Next: ${next} is no file`).toBe(true);
      const after = order[order.indexOf(page) + 1] ?? 'README.md';
      expect(target).toBe(resolve(REPO, after));
      expect(contentsProblems(text)).toEqual([]);
    },
  );
});
