// The README recipe extractor the e2e recipe tests rely on: it takes exactly the marked block,
// refuses a missing or doubled marker (a test that silently ran nothing would prove nothing),
// and maps ports in one pass, refusing a mapping the README no longer matches.
import { describe, expect, it } from 'vitest';
import { readmeRecipe, withPorts } from '../helpers/readme-recipes.js';

const readme = ['# Title', '', '<!-- recipe: one -->', '```sh', 'echo one', 'echo 5353', '```', '', '```sh', 'echo other', '```', '<!-- recipe: two -->', 'prose first', '```sh', 'echo two', '```', ''].join('\n');

describe('readmeRecipe', () => {
  it('returns the body of the block right after the marker, nothing more', () => {
    expect(readmeRecipe('one', readme)).toBe('echo one\necho 5353\n');
  });

  it('refuses a marker that is missing, doubled, or not followed by a sh block', () => {
    expect(() => readmeRecipe('three', readme)).toThrow(/no block marked <!-- recipe: three -->/);
    expect(() => readmeRecipe('one', readme + readme)).toThrow(/marks two blocks/);
    expect(() => readmeRecipe('two', readme)).toThrow(/not followed by a sh block/);
  });

  it('finds every block the e2e recipe tests run in the real README', () => {
    for (const name of ['acme-pebble-start', 'acme-pebble-certbot', 'acme-pebble-lego', 'acme-pebble-stop', 'gateway-key-certbot', 'gateway-certbot', 'gateway-key-lego', 'gateway-lego', 'gateway-key-router', 'gateway-nsupdate', 'gateway-knsupdate', 'gateway-key-external-dns'])
      expect(readmeRecipe(name).length).toBeGreaterThan(0);
  });
});

describe('withPorts', () => {
  it('replaces whole port numbers in one pass', () => {
    expect(withPorts('a 127.0.0.1:5353 b 15353 c 8443', { 5353: 8443, 8443: 40001 })).toBe('a 127.0.0.1:8443 b 15353 c 40001');
  });

  it('refuses a port the script does not name (the README and the mapping drifted apart)', () => {
    expect(() => withPorts('echo 15353', { 5353: 40000 })).toThrow(/no longer names port 5353/);
  });
});
