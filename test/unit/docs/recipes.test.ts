// The recipe extractor the e2e recipe tests rely on: it takes exactly the marked block, from
// whichever page of the docs (README.md, docs/*.md) holds it, refuses a missing or doubled marker
// (a test that silently ran nothing would prove nothing), and maps ports in one pass, refusing a
// mapping the page no longer matches.
import { describe, expect, it } from 'vitest';
import { docPage, docPages, readmeRecipe, withPorts } from '../../helpers/readme-recipes.js';

const readme = [
  '# Title',
  '',
  '<!-- recipe: one -->',
  '```sh',
  'echo one',
  'echo 5353',
  '```',
  '',
  '```sh',
  'echo other',
  '```',
  '<!-- recipe: two -->',
  'prose first',
  '```sh',
  'echo two',
  '```',
  '',
].join('\n');

describe('readmeRecipe', () => {
  it('returns the body of the block right after the marker, nothing more', () => {
    expect(readmeRecipe('one', readme)).toBe('echo one\necho 5353\n');
  });

  it('refuses a marker that is missing, doubled, or not followed by a sh block', () => {
    expect(() => readmeRecipe('three', readme)).toThrow(/no block marked <!-- recipe: three -->/);
    expect(() => readmeRecipe('one', readme + readme)).toThrow(/marks two blocks/);
    expect(() => readmeRecipe('two', readme)).toThrow(/not followed by a sh block/);
  });

  it('finds every block the recipe tests run, each in one page of the docs', () => {
    for (const name of [
      'arm64-qemu',
      'container-sandbox',
      'dns-source-sandbox',
      'gateway-sandbox',
      'kea-nsupdate',
      'dyndns2-sandbox',
      'dyndns2-curl',
      'dyndns2-ddclient',
      'dyndns2-inadyn',
      'acme-pebble-start',
      'acme-pebble-certbot',
      'acme-pebble-lego',
      'acme-pebble-stop',
      'gateway-key-certbot',
      'acme-http-key',
      'acme-http-lego',
      'acme-http-lego-raw',
      'acme-http-accounts',
      'gateway-certbot',
      'gateway-key-lego',
      'gateway-lego',
      'gateway-key-router',
      'gateway-nsupdate',
      'gateway-knsupdate',
      'gateway-key-external-dns',
    ])
      expect(readmeRecipe(name).length).toBeGreaterThan(0);
  });

  it('finds each marked block of the docs in exactly one page', () => {
    const names = docPages().flatMap((page) =>
      [...docPage(page).matchAll(/^<!-- recipe: ([\w-]+) -->\n```(?:sh|bash)\n/gm)].map((m) => m[1]!),
    );
    expect(names.length).toBeGreaterThan(20);
    for (const name of names) expect(readmeRecipe(name).length, name).toBeGreaterThan(0);
  });
});

describe('withPorts', () => {
  it('replaces whole port numbers in one pass', () => {
    expect(withPorts('a 127.0.0.1:5353 b 15353 c 8443', { 5353: 8443, 8443: 40001 })).toBe(
      'a 127.0.0.1:8443 b 15353 c 40001',
    );
  });

  it('refuses a port the script does not name (the page and the mapping drifted apart)', () => {
    expect(() => withPorts('echo 15353', { 5353: 40000 })).toThrow(/no longer names port 5353/);
  });
});

/** Every sh block of the docs, with the page that holds it. */
function shellBlocks(): { page: string; body: string }[] {
  return docPages().flatMap((page) =>
    [...docPage(page).matchAll(/^```(?:sh|bash)\n([\s\S]*?)^```$/gm)].map((m) => ({ page, body: m[1]! })),
  );
}

describe("the docs' shell blocks and the sandbox's ports", () => {
  it('start a sandbox in the background only with --print-env, on ports it picks', () => {
    const starts = shellBlocks().flatMap(({ page, body }) =>
      body
        .split('\n')
        .filter((line) => /\bsandbox\b[^#]*&(\s|$)/.test(line) && /ddedge(\.mjs|-linux-\S+)? sandbox/.test(line))
        .map((line) => `${page}: ${line}`),
    );
    expect(starts.length).toBeGreaterThan(8);
    for (const line of starts) {
      expect(line).toContain('--print-env');
      expect(line).not.toMatch(/--(dns-)?port\b/);
    }
  });

  it("name neither 8443 nor 5353 (mDNS's, taken on most desktops), but where --port shows its use", () => {
    const named = shellBlocks().flatMap(({ page, body }) =>
      body
        .split('\n')
        .filter((line) => /(?<![0-9])(8443|5353)(?![0-9])/.test(line))
        .map((line) => `${page}: ${line}`),
    );
    expect(named).toEqual([expect.stringMatching(/^docs\/sandbox\.md: node dist\/ddedge\.mjs sandbox --port 8443 /)]);
  });
});
