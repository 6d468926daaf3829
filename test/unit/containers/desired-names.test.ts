// The names kept for containers, from the engine's news, on a clock the test moves: a stopped
// container's names held for the grace, a shared name kept while either container runs, the
// running set after a reconnect taken as the truth, nothing let go while the engine is lost.
import { describe, expect, it } from 'vitest';
import { DesiredNames, MAX_KEPT_NAMES } from '../../../src/containers/desired-names.js';
import type { ContainerSeen } from '../../../src/containers/engine/news.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const GRACE = 10 * 60_000;
const RULES = { zones: ['example.com'], keptHosts: ['home.example.com'], traefik: false };

function setup() {
  const clock = new FakeClock();
  const warnings: string[] = [];
  const names = new DesiredNames(RULES, GRACE, clock, (m) => warnings.push(m));
  return { clock, warnings, names };
}

const seen = (id: string, hosts: string, extra: Record<string, string> = {}): ContainerSeen => ({
  id,
  name: id,
  labels: { 'ddedge.hosts': hosts, ...extra },
});
const kept = (names: DesiredNames) => names.wanted().map((w) => w.name);

describe('the names kept for containers', () => {
  it('keeps a running container names, and a stopped one names for the grace only', () => {
    const { clock, names } = setup();
    expect(names.take({ kind: 'running', containers: [seen('a', 'cloud.example.com')] })).toEqual([
      'cloud.example.com',
    ]);
    expect(names.take({ kind: 'started', container: seen('b', 'git.example.com') })).toEqual(['git.example.com']);
    expect(names.take({ kind: 'stopped', id: 'b' })).toEqual([]);
    expect(names.wanted()).toContainEqual({
      name: 'git.example.com',
      containers: ['container b (b)'],
      heldUntil: clock.now() + GRACE,
    });
    expect(names.nextExpiry()).toBe(clock.now() + GRACE);
    clock.advance(GRACE - 1);
    expect(names.expire()).toEqual([]);
    clock.advance(1);
    expect(names.expire()).toEqual(['git.example.com']);
    expect(kept(names)).toEqual(['cloud.example.com']);
    expect(names.nextExpiry()).toBeUndefined();
  });

  it('keeps a container restarted within the grace as if it never stopped', () => {
    const { clock, names } = setup();
    names.take({ kind: 'running', containers: [seen('a', 'cloud.example.com')] });
    names.take({ kind: 'stopped', id: 'a' });
    clock.advance(GRACE / 2);
    expect(names.take({ kind: 'started', container: seen('a2', 'cloud.example.com') })).toEqual([]);
    clock.advance(GRACE);
    expect(names.expire()).toEqual([]);
    expect(names.wanted()).toEqual([{ name: 'cloud.example.com', containers: ['container a2 (a2)'] }]);
  });

  it('keeps a name two containers give while either runs', () => {
    const { clock, names } = setup();
    names.take({ kind: 'running', containers: [seen('a', 'www.example.com'), seen('b', 'www.example.com')] });
    expect(names.wanted()[0]!.containers).toEqual(['container a (a)', 'container b (b)']);
    names.take({ kind: 'stopped', id: 'a' });
    clock.advance(2 * GRACE);
    expect(names.expire()).toEqual([]);
    expect(kept(names)).toEqual(['www.example.com']);
    names.take({ kind: 'stopped', id: 'b' });
    clock.advance(GRACE);
    expect(names.expire()).toEqual(['www.example.com']);
  });

  it('takes the running set after a reconnect as the truth: the missing start their grace then', () => {
    const { clock, names } = setup();
    names.take({ kind: 'running', containers: [seen('a', 'a.example.com'), seen('b', 'b.example.com')] });
    names.take({ kind: 'lost', reason: 'engine restarted' });
    clock.advance(GRACE * 3);
    expect(names.expire()).toEqual([]);
    expect(names.nextExpiry()).toBeUndefined();
    // b stopped while nobody listened; c started.
    expect(
      names.take({ kind: 'running', containers: [seen('a', 'a.example.com'), seen('c', 'c.example.com')] }),
    ).toEqual(['c.example.com']);
    expect(names.nextExpiry()).toBe(clock.now() + GRACE);
    clock.advance(GRACE);
    expect(names.expire()).toEqual(['b.example.com']);
    expect(kept(names)).toEqual(['a.example.com', 'c.example.com']);
  });

  it('lets nothing go while the engine is lost, even a grace that ends meanwhile', () => {
    const { clock, names } = setup();
    names.take({ kind: 'running', containers: [seen('a', 'a.example.com')] });
    names.take({ kind: 'stopped', id: 'a' });
    names.take({ kind: 'lost', reason: 'socket closed' });
    clock.advance(GRACE * 2);
    expect(names.expire()).toEqual([]);
    names.take({ kind: 'running', containers: [] });
    expect(names.expire()).toEqual(['a.example.com']);
  });

  it('holds the names known from before a restart until the engine is heard, then for the grace', () => {
    const { clock, names } = setup();
    names.seed([
      { name: 'old.example.com', containers: ['container old (o)'] },
      { name: 'kept.example.com', containers: ['container k (k)'] },
    ]);
    clock.advance(GRACE * 2);
    expect(names.expire()).toEqual([]);
    names.take({ kind: 'running', containers: [seen('k', 'kept.example.com')] });
    clock.advance(GRACE - 1);
    expect(names.expire()).toEqual([]);
    clock.advance(1);
    expect(names.expire()).toEqual(['old.example.com']);
    expect(kept(names)).toEqual(['kept.example.com']);
  });

  it('holds no name known from before that the agent now keeps through DDEDGE_HOSTS', () => {
    const { names } = setup();
    names.seed([
      { name: 'home.example.com', containers: ['container a (a)'], target: 'edge.example.com' },
      { name: 'cloud.example.com', containers: ['container a (a)'] },
    ]);
    expect(kept(names)).toEqual(['cloud.example.com']);
  });

  it('continues a grace that was running before a restart', () => {
    const { clock, names } = setup();
    names.seed([{ name: 'old.example.com', containers: ['c'], heldUntil: clock.now() + 1000 }]);
    names.take({ kind: 'running', containers: [] });
    clock.advance(1000);
    expect(names.expire()).toEqual(['old.example.com']);
  });

  it('says a refusal once per container, not at every reconnect', () => {
    const { names, warnings } = setup();
    const evil = seen('e', 'bank.other.org,ok.example.com');
    for (let i = 0; i < 3; i++) names.take({ kind: 'running', containers: [evil] });
    expect(warnings).toEqual([
      expect.stringMatching(/^container e \(e\): bank\.other\.org is outside the served zones/),
    ]);
    expect(kept(names)).toEqual(['ok.example.com']);
  });

  it('tells a change of target as a change of the name', () => {
    const { names } = setup();
    names.take({ kind: 'running', containers: [seen('a', 'a.example.com')] });
    expect(
      names.take({ kind: 'started', container: seen('a', 'a.example.com', { 'ddedge.target': 'home.example.com' }) }),
    ).toEqual(['a.example.com']);
    expect(names.wanted()).toEqual([
      { name: 'a.example.com', containers: ['container a (a)'], target: 'home.example.com' },
    ]);
  });

  it(`keeps at most ${MAX_KEPT_NAMES} names, whatever the containers ask: the rest are refused with a warning`, () => {
    const { names, warnings } = setup();
    const many = Array.from({ length: MAX_KEPT_NAMES / 20 + 5 }, (_, i) =>
      seen(`c${i}`, Array.from({ length: 20 }, (_, j) => `n${i}x${j}.example.com`).join(',')),
    );
    names.take({ kind: 'running', containers: many });
    expect(names.wanted()).toHaveLength(MAX_KEPT_NAMES);
    expect(warnings.filter((w) => w.includes(`${MAX_KEPT_NAMES} names are kept already`))).toHaveLength(5);
    // A name already kept is still taken by another container.
    names.take({ kind: 'started', container: seen('late', 'n0x0.example.com') });
    expect(names.wanted().find((w) => w.name === 'n0x0.example.com')?.containers).toHaveLength(2);
  });

  describe('a name a second container gives with another target', () => {
    const evil = () => seen('b', 'cloud.example.com', { 'ddedge.target': 'other.example.com' });
    const targetOf = (names: DesiredNames) => names.wanted().find((w) => w.name === 'cloud.example.com')?.target;

    it('stays as the first container gave it while the first restarts within the grace', () => {
      const { clock, names, warnings } = setup();
      names.take({ kind: 'running', containers: [seen('a', 'cloud.example.com')] });
      expect(names.take({ kind: 'started', container: evil() })).toEqual([]);
      expect(warnings.join()).toContain('another target; kept as it was');
      expect(names.take({ kind: 'stopped', id: 'a' })).toEqual([]);
      expect(targetOf(names)).toBeUndefined();
      clock.advance(GRACE / 2);
      expect(names.take({ kind: 'started', container: seen('a', 'cloud.example.com') })).toEqual([]);
      expect(targetOf(names)).toBeUndefined();
      // The second one stopping and coming back changes nothing either.
      expect(names.take({ kind: 'stopped', id: 'b' })).toEqual([]);
      expect(names.take({ kind: 'started', container: evil() })).toEqual([]);
      expect(names.take({ kind: 'stopped', id: 'a' })).toEqual([]);
      expect(names.take({ kind: 'stopped', id: 'b' })).toEqual([]);
      expect(targetOf(names)).toBeUndefined();
    });

    it('stays as it was kept across a restart of the agent, whatever order the engine lists them in', () => {
      const { names } = setup();
      names.seed([{ name: 'cloud.example.com', containers: ['container a (a)'] }]);
      expect(names.take({ kind: 'running', containers: [evil(), seen('a', 'cloud.example.com')] })).toEqual([]);
      expect(targetOf(names)).toBeUndefined();
    });

    it('follows the first container recreated with another target (the same name, a new id) at once', () => {
      const { names } = setup();
      const web = (id: string, target: string): ContainerSeen => ({
        id,
        name: 'web',
        labels: { 'ddedge.hosts': 'cloud.example.com', 'ddedge.target': target },
      });
      names.take({ kind: 'running', containers: [web('a1', 'home.example.com')] });
      names.take({ kind: 'stopped', id: 'a1' });
      expect(names.take({ kind: 'started', container: web('a2', 'edge.example.com') })).toEqual(['cloud.example.com']);
      expect(targetOf(names)).toBe('edge.example.com');
    });

    it('goes to the second container once the first has been gone for the grace', () => {
      const { clock, names } = setup();
      names.take({ kind: 'running', containers: [seen('a', 'cloud.example.com'), evil()] });
      names.take({ kind: 'stopped', id: 'a' });
      clock.advance(GRACE);
      expect(names.expire()).toEqual(['cloud.example.com']);
      expect(targetOf(names)).toBe('other.example.com');
    });
  });
});
