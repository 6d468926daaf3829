// Traefik's router rules as Traefik reads them: the names of every Host(…) outside a negation,
// whatever else the rule says, and a rule that is no rule refused, never guessed at.
import { describe, expect, it } from 'vitest';
import { hostsOfRule, RuleError } from '../../../src/containers/traefik-rule.js';

describe('the host names of a Traefik rule', () => {
  it.each([
    ['Host(`cloud.example.com`)', ['cloud.example.com'], []],
    ['Host("cloud.example.com")', ['cloud.example.com'], []],
    ['Host(`a.example.com`) || Host(`b.example.com`)', ['a.example.com', 'b.example.com'], []],
    ['Host(`a.example.com`, `b.example.com`)', ['a.example.com', 'b.example.com'], []],
    ['host(`a.example.com`) || HOST(`b.example.com`)', ['a.example.com', 'b.example.com'], []],
    ['Host(`a.example.com`) && PathPrefix(`/api`)', ['a.example.com'], ['PathPrefix']],
    ['(Host(`a.example.com`) || Host(`b.example.com`)) && !Path(`/x`)', ['a.example.com', 'b.example.com'], ['Path']],
    ['HostRegexp(`^.+\\.example\\.com$`)', [], ['HostRegexp']],
    ['!Host(`a.example.com`)', [], ['!Host']],
    ['!!Host(`a.example.com`)', ['a.example.com'], []],
    ['Host(`a.example.com`) || HostSNI(`*`)', ['a.example.com'], ['HostSNI']],
    ['Host("a\\u002eexample.com")', ['a.example.com'], []],
    ['Host()', [], []],
  ])('%s', (rule, hosts, ignored) => {
    expect(hostsOfRule(rule)).toEqual({ hosts, ignored });
  });

  it.each([
    'Host(`a.example.com`',
    'Host(`a.example.com)',
    'Host(a.example.com)',
    'Host(`a`) Host(`b`)',
    'Host(`a`) ||',
    '|| Host(`a`)',
    'Host(`a`) | Host(`b`)',
    '$(rm -rf /)',
    'Host("\\q")',
    '',
    '((((((((((((((((((((((((((((((((((((Host(`a`))))))))))))))))))))))))))))))))))))',
    `Host(\`${'a'.repeat(5000)}\`)`,
  ])('refuses %s', (rule) => {
    expect(() => hostsOfRule(rule)).toThrow(RuleError);
  });
});
