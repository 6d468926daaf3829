// The agent's configuration reference and source list (docs/agent.md) and the gateway's
// (docs/gateway.md) are the user's manual: they must name every setting and every built-in source the code has. The front page keeps the
// two quick-start commands.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GATEWAY_SETTINGS, SETTINGS } from '../../../src/config/settings.js';
import { BUILTIN_SOURCES, DEFAULT_SOURCES } from '../../../src/ip/sources.js';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const agent = readFileSync(new URL('../../../docs/agent.md', import.meta.url), 'utf8');
const gateway = ['gateway.md', 'gateway-dyndns2.md']
  .map((page) => readFileSync(new URL(`../../../docs/${page}`, import.meta.url), 'utf8'))
  .join('\n');

describe('docs/agent.md', () => {
  it.each(Object.values(SETTINGS).map((s) => [s.flag, s.env] as const))('documents --%s / %s', (flag, env) => {
    expect(agent).toMatch(new RegExp(`\\| \`--${flag}\`[^|]*\\| \`${env}\``));
  });
  it.each(Object.keys(BUILTIN_SOURCES))('documents the %s source', (name) => {
    expect(agent).toContain(`| \`${name}\` |`);
  });
  it('states the default source lists', () => {
    expect(agent).toContain(`Default IPv4 list: \`${DEFAULT_SOURCES[4].join(', ')}\``);
    expect(agent).toContain(`Default IPv6 list:\n\`${DEFAULT_SOURCES[6].join(', ')}\``);
  });
});

describe('docs/gateway.md and gateway-dyndns2.md', () => {
  it.each(Object.values(GATEWAY_SETTINGS).map((s) => [s.flag, s.env] as const))('documents --%s / %s', (flag, env) => {
    expect(gateway).toMatch(new RegExp(`\\| [^|\\n]*\`--${flag}\`[^|]*\\| [^|]*\`${env}\``));
  });
});

describe('README', () => {
  it('has the two quick-start commands', () => {
    expect(readme).toContain('npm install && npm run demo');
    expect(readme).toContain('npm test');
  });
});
