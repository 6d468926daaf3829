// A container's labels are untrusted input: each name is judged on its own, a refusal is a
// warning naming the container, and nothing a label says makes the reading throw.
import { describe, expect, it } from 'vitest';
import { MAX_NAMES_PER_CONTAINER, namesOf, type NamingRules } from '../../../src/containers/labels.js';

const RULES: NamingRules = { zones: ['example.com'], keptHosts: ['home.example.com'], traefik: false };
const container = (labels: Record<string, string>, name = 'web') => ({ id: 'c0ffee0123456789abcdef', name, labels });

describe('the names a container asks for', () => {
  it('takes each name of ddedge.hosts, canonical and once', () => {
    const naming = namesOf(
      container({ 'ddedge.hosts': 'Cloud.Example.com, photos.example.com.,cloud.example.com' }),
      RULES,
    );
    expect(naming).toEqual({ names: ['cloud.example.com', 'photos.example.com'], warnings: [] });
  });

  it('gives the names a CNAME target with ddedge.target', () => {
    const naming = namesOf(
      container({ 'ddedge.hosts': 'git.example.com', 'ddedge.target': 'Home.Example.com' }),
      RULES,
    );
    expect(naming).toEqual({ names: ['git.example.com'], target: 'home.example.com', warnings: [] });
  });

  it.each(['phish.example.net', 'ｅｖｉｌ.example.net', 'notexample.com'])(
    'refuses a ddedge.target outside the served zones (%j): none of the names is pointed away',
    (away) => {
      const naming = namesOf(container({ 'ddedge.hosts': 'login.example.com', 'ddedge.target': away }, 'evil'), RULES);
      expect(naming.names).toEqual([]);
      expect(naming.warnings).toEqual([expect.stringMatching(/^container evil .*outside the served zones/)]);
    },
  );

  it('takes a ddedge.target at the apex or below it', () => {
    for (const target of ['example.com', 'home.example.com'])
      expect(namesOf(container({ 'ddedge.hosts': 'a.example.com', 'ddedge.target': target }), RULES).target).toBe(
        target,
      );
  });

  it('says a bounded number of warnings for a container, however many of its labels are bad', () => {
    const labels: Record<string, string> = { 'ddedge.hosts': 'bad_1.example.com' };
    for (let i = 0; i < 256; i++) labels[`traefik.http.routers.r${i}.rule`] = 'Host(`unclosed';
    const naming = namesOf(container(labels, 'noisy'), { ...RULES, traefik: true });
    expect(naming.names).toEqual([]);
    expect(naming.warnings.length).toBeLessThanOrEqual(6);
    expect(naming.warnings.at(-1)).toMatch(/^container noisy .*: \d+ more problem\(s\) with its labels, not told$/);
  });

  it('takes no name from a container without the label', () => {
    expect(namesOf(container({ 'com.docker.compose.service': 'db' }), RULES)).toEqual({ names: [], warnings: [] });
  });

  it.each([
    ['other.org', 'outside the served zones'],
    ['notexample.com', 'outside the served zones'],
    ['x\\.example.com', 'not a host name'],
    ['example.com', 'the apex of the zone example.com'],
    ['*.example.com', 'a wildcard'],
    ['home.example.com', 'kept through DDEDGE_HOSTS'],
    ['under_score.example.com', 'not a host name'],
    ['-bad.example.com', 'not a host name'],
    ['a..example.com', 'not a host name'],
    ['exa\tmple.example.com', 'not a host name'],
    ['ex%41mple.example.com', 'not a host name'],
    [`${'a'.repeat(64)}.example.com`, 'not a host name'],
    ['10.0.0.1', 'not a host name'],
    ['\u001b[31mred.example.com', 'not a host name'],
  ])('refuses %j with a warning naming the container, and keeps the good names', (bad, why) => {
    const naming = namesOf(container({ 'ddedge.hosts': `${bad},ok.example.com` }, 'evil'), RULES);
    expect(naming.names).toEqual(['ok.example.com']);
    expect(naming.warnings).toHaveLength(1);
    expect(naming.warnings[0]).toMatch(/^container evil \(c0ffee012345\): /);
    expect(naming.warnings[0]).toContain(why);
    // Escaped: no control character reaches a log.
    expect(naming.warnings[0]).not.toMatch(/[\u0000-\u001f]/);
  });

  it(`refuses a container naming more than ${MAX_NAMES_PER_CONTAINER} names, whole`, () => {
    const many = Array.from({ length: MAX_NAMES_PER_CONTAINER + 1 }, (_, i) => `n${i}.example.com`).join(',');
    const naming = namesOf(container({ 'ddedge.hosts': many }), RULES);
    expect(naming.names).toEqual([]);
    expect(naming.warnings).toEqual([expect.stringMatching(/names 21 hosts, more than 20; none of them is taken/)]);
    const twenty = many.split(',').slice(0, MAX_NAMES_PER_CONTAINER).join(',');
    expect(namesOf(container({ 'ddedge.hosts': twenty }), RULES).names).toHaveLength(MAX_NAMES_PER_CONTAINER);
  });

  it('refuses a huge label unread, and a target that is no name or one of its own names', () => {
    expect(namesOf(container({ 'ddedge.hosts': 'a,'.repeat(10_000) }), RULES).warnings[0]).toMatch(/longer than/);
    for (const target of ['not a name', '*.example.com', 'x', 'git.example.com'])
      expect(namesOf(container({ 'ddedge.hosts': 'git.example.com', 'ddedge.target': target }), RULES)).toEqual({
        names: [],
        warnings: [expect.stringMatching(/ddedge\.target .*none of its names is taken/)],
      });
  });

  it('names a container safely whatever its name', () => {
    const naming = namesOf(container({ 'ddedge.hosts': 'other.org' }, 'x\nwarn: forged line'), RULES);
    expect(naming.warnings[0]).not.toContain('\n');
  });
});

describe('names from Traefik router rules (--containers-traefik)', () => {
  const traefik = { ...RULES, traefik: true };
  it('takes every router Host(…), judged as ddedge.hosts names are', () => {
    const naming = namesOf(
      container({
        'traefik.http.routers.cloud.rule': 'Host(`cloud.example.com`) || Host(`www.cloud.example.com`)',
        'traefik.http.routers.api.rule': 'Host(`api.example.com`) && PathPrefix(`/v1`)',
        'traefik.http.routers.evil.rule': 'Host(`bank.other.org`)',
        'traefik.http.routers.bad.rule': 'Host(`x`',
        'traefik.http.services.cloud.loadbalancer.server.port': '80',
      }),
      traefik,
    );
    expect(naming.names).toEqual(['api.example.com', 'cloud.example.com', 'www.cloud.example.com']);
    expect(naming.warnings).toEqual([
      expect.stringMatching(/router bad is not read/),
      expect.stringMatching(/only Host\(…\) names are taken; ignored: PathPrefix$/),
      expect.stringMatching(/bank\.other\.org is outside the served zones/),
    ]);
  });

  it('reads no rule without --containers-traefik, nor of a container Traefik is told to leave alone', () => {
    const labels = { 'traefik.http.routers.r.rule': 'Host(`a.example.com`)' };
    expect(namesOf(container(labels), RULES).names).toEqual([]);
    expect(namesOf(container({ ...labels, 'traefik.enable': 'false' }), traefik).names).toEqual([]);
    expect(namesOf(container(labels), traefik).names).toEqual(['a.example.com']);
  });
});
