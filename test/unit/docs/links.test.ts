// The front page (README.md) and the manual's pages (docs/*.md) link to each other and to files of
// the repository: every relative link must reach a file that exists and, when it names a
// `#anchor` in one of those pages, a heading of that page, as GitHub spells heading anchors. A
// page moved or a heading renamed otherwise leaves a reader at a dead link.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, headingSlug, prose } from '../../helpers/markdown.js';
import { docPages, REPO } from '../../helpers/readme-recipes.js';

/** The targets of a page's inline links and images, `[text](target)`, that are not web addresses. */
function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const match of prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
    links.push(target);
  }
  return links;
}

/**
 * What is wrong with each relative link of `page` (a path relative to `root`): a missing file,
 * or an anchor no heading of the page it names gives. `read` returns a page's text.
 */
function brokenLinks(root: string, page: string, read: (path: string) => string | undefined): string[] {
  const problems: string[] = [];
  for (const link of relativeLinks(read(page) ?? '')) {
    const [path, anchor] = link.split('#', 2) as [string, string | undefined];
    const target = path === '' ? page : relative(root, resolve(root, dirname(page), decodeURIComponent(path)));
    if (target.startsWith('..')) {
      problems.push(`${page}: ${link} leaves the repository`);
      continue;
    }
    const text = read(target);
    if (text === undefined && !existsSync(join(root, target))) {
      problems.push(`${page}: ${link}: no file ${target}`);
      continue;
    }
    if (anchor === undefined) continue;
    if (text === undefined || !target.endsWith('.md')) {
      problems.push(`${page}: ${link}: an anchor into ${target}, which is not a page`);
      continue;
    }
    if (!anchorsOf(text).has(anchor)) problems.push(`${page}: ${link}: ${target} has no heading #${anchor}`);
  }
  return problems;
}

function readFrom(root: string) {
  return (path: string): string | undefined => {
    if (!path.endsWith('.md')) return undefined;
    try {
      return readFileSync(join(root, path), 'utf8');
    } catch {
      return undefined;
    }
  };
}

describe('headingSlug', () => {
  it('spells anchors as GitHub does', () => {
    expect(headingSlug('Certificates (ACME DNS-01)')).toBe('certificates-acme-dns-01');
    expect(headingSlug("The daemon's HTTP endpoint")).toBe('the-daemons-http-endpoint');
    expect(headingSlug('The DNS gateway: `ddedge gateway`')).toBe('the-dns-gateway-ddedge-gateway');
    expect(headingSlug('From a systemd timer (routers, servers)')).toBe('from-a-systemd-timer-routers-servers');
    expect(headingSlug('Long-running memory (`node bench/all.mjs soak`)')).toBe(
      'long-running-memory-node-benchallmjs-soak',
    );
    expect(headingSlug('DHCP servers (Kea, ISC DHCP)')).toBe('dhcp-servers-kea-isc-dhcp');
  });
});

describe('brokenLinks', () => {
  const pages: Record<string, string> = {
    'README.md':
      '# ddedge\n\n## Quick start\n\nSee [the agent](docs/agent.md#address-sources) and [start](#quick-start).\n',
    'docs/agent.md':
      '# The agent\n\n## Address sources\n\n## Notes\n\n## Notes\n\nBack to [the front page](../README.md#quick-start), [notes](#notes-1).\n\n```sh\necho [not a link](nowhere.md)\n```\n',
  };
  const read = (path: string) => pages[path];

  it('finds nothing wrong in pages whose links all resolve', () => {
    expect(brokenLinks(REPO, 'README.md', read)).toEqual([]);
    expect(brokenLinks(REPO, 'docs/agent.md', read)).toEqual([]);
  });

  it('names a link to a page that does not exist', () => {
    expect(brokenLinks(REPO, 'README.md', (p) => (p === 'README.md' ? '[gone](docs/gone.md)' : pages[p]))).toEqual([
      'README.md: docs/gone.md: no file docs/gone.md',
    ]);
  });

  it('names an anchor that no heading gives, in the page itself or in another', () => {
    const text = '# T\n\n[a](#nowhere) [b](docs/agent.md#notes-2) [c](docs/agent.md#address-sources)\n';
    expect(brokenLinks(REPO, 'README.md', (p) => (p === 'README.md' ? text : pages[p]))).toEqual([
      'README.md: #nowhere: README.md has no heading #nowhere',
      'README.md: docs/agent.md#notes-2: docs/agent.md has no heading #notes-2',
    ]);
  });

  it('names a link to a repository file that does not exist, and accepts one that does', () => {
    const text = '[units](systemd/ddedge.timer) [shot](docs/status-page-light.png) [x](examples/missing.yaml)\n';
    expect(brokenLinks(REPO, 'README.md', (p) => (p === 'README.md' ? text : undefined))).toEqual([
      'README.md: examples/missing.yaml: no file examples/missing.yaml',
    ]);
  });
});

describe('the front page and the docs', () => {
  const read = readFrom(REPO);
  it.each(docPages())('%s: every relative link and anchor resolves', (page) => {
    expect(brokenLinks(REPO, page, read)).toEqual([]);
  });
});
