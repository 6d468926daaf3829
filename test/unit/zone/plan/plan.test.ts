// The mapping (both ways, every type), the plan (a pure function), ownership, safety and the
// order of the calls, without a provider.
import { describe, expect, it } from 'vitest';
import { ownership } from '../../../../src/zone/plan/ownership.js';
import { planZone, summarize, type Change } from '../../../../src/zone/plan/plan.js';
import { fromProvider, toProvider } from '../../../../src/zone/provider/provider-mapping.js';
import type { LiveRecord, ZoneRecord } from '../../../../src/zone/record.js';
import { safetyProblems } from '../../../../src/zone/plan/safety.js';
import { callCount, stepsOf } from '../../../../src/zone/plan/steps.js';
import type { WantedZone } from '../../../../src/zone/wanted-zone.js';

const Z = 'example.com';
const entry = (id: number, name: string, type: string, value: string, ttl = '-', priority = '-') => ({
  entityID: String(id),
  name,
  type,
  ttl,
  priority,
  value,
});

describe('provider entries <-> records', () => {
  it.each([
    [entry(1, 'WWW.Example.com.', 'A', '192.0.2.1'), { name: 'www.example.com', type: 'A', value: '192.0.2.1' }],
    [
      entry(2, 'example.com', 'AAAA', '2001:DB8:0:0::1', '300'),
      { name: 'example.com', type: 'AAAA', ttl: 300, value: '2001:db8::1' },
    ],
    [
      entry(3, 'www.example.com', 'CNAME', 'Example.com.'),
      { name: 'www.example.com', type: 'CNAME', value: 'example.com' },
    ],
    [
      entry(4, 'example.com', 'MX', 'mail.example.com', '-', '20'),
      { name: 'example.com', type: 'MX', priority: 20, value: 'mail.example.com' },
    ],
    [
      entry(5, 'example.com', 'MX', 'mail.example.com'),
      { name: 'example.com', type: 'MX', priority: 10, value: 'mail.example.com' },
    ],
    [
      entry(6, '_sip._tcp.example.com', 'SRV', '60 5060 sip.example.com', '-', '5'),
      { name: '_sip._tcp.example.com', type: 'SRV', priority: 5, value: '60 5060 sip.example.com' },
    ],
    [
      entry(7, '_sip._tcp.example.com', 'SRV', '5 60 5060 sip.example.com.'),
      { name: '_sip._tcp.example.com', type: 'SRV', priority: 5, value: '60 5060 sip.example.com' },
    ],
    [
      entry(8, 'example.com', 'CAA', '0 issue letsencrypt.org'),
      { name: 'example.com', type: 'CAA', value: '0 issue "letsencrypt.org"' },
    ],
    [
      entry(9, 'example.com', 'TXT', 'v=spf1 "quoted" -all'),
      { name: 'example.com', type: 'TXT', value: 'v=spf1 "quoted" -all' },
    ],
    [entry(10, 'e.example.com', 'TXT', '""'), { name: 'e.example.com', type: 'TXT', value: '' }],
    [
      entry(11, 'sub.example.com', 'NS', 'ns1.example.net'),
      { name: 'sub.example.com', type: 'NS', value: 'ns1.example.net' },
    ],
    [
      entry(12, 'xn--bcher-kva.example.com', 'A', '192.0.2.2'),
      { name: 'xn--bcher-kva.example.com', type: 'A', value: '192.0.2.2' },
    ],
  ])('%o', (provider, record) => {
    const live = fromProvider(provider, Z);
    expect(live).toEqual({ entityID: provider.entityID, ttl: undefined, priority: undefined, ...record });
    const back = toProvider(live);
    expect(back).toMatchObject({ name: record.name, type: record.type });
    expect(
      fromProvider(
        {
          ...entry(
            0,
            back.name,
            back.type,
            back.value,
            back.ttl === undefined ? '-' : String(back.ttl),
            back.priority === undefined ? '-' : String(back.priority),
          ),
        },
        Z,
      ),
    ).toEqual({ ...live, entityID: '0' });
  });
});

const live = (id: number, name: string, type: string, value: string, extra: Partial<ZoneRecord> = {}): LiveRecord => ({
  entityID: String(id),
  name,
  type,
  value,
  ttl: undefined,
  priority: undefined,
  ...extra,
});
const wanted = (...records: ZoneRecord[]): WantedZone => ({
  zone: Z,
  records: records.map((r) => ({ ttl: undefined, ...r, where: 'z:1:1' })),
  notes: [],
});
const nobody = ownership({ zone: Z, hosts: [], ignore: [] });

describe('the plan', () => {
  it('a TTL change on one of three MX records is one update', () => {
    const have = [1, 2, 3].map((i) => live(i, Z, 'MX', `mx${i}.example.net`, { priority: i * 10 }));
    const want = wanted(
      ...[1, 2, 3].map((i) => ({
        name: Z,
        type: 'MX' as const,
        priority: i * 10,
        value: `mx${i}.example.net`,
        ttl: i === 2 ? 60 : undefined,
      })),
    );
    const plan = planZone(have, want, nobody);
    expect(summarize(plan)).toEqual({ create: 0, update: 1, delete: 0, unchanged: 2 });
    expect(plan.changes[0]).toMatchObject({ action: 'update', before: { entityID: '2' }, after: { ttl: 60 } });
  });

  it('a new value at one name and type is an update in place; a new type is a delete and a create', () => {
    const plan = planZone(
      [live(1, `a.${Z}`, 'A', '192.0.2.1'), live(2, `b.${Z}`, 'CNAME', Z)],
      wanted({ name: `a.${Z}`, type: 'A', value: '192.0.2.2' }, { name: `b.${Z}`, type: 'A', value: '192.0.2.3' }),
      nobody,
    );
    expect(
      plan.changes.map((c) => `${c.action} ${(c.after ?? c.before)!.name} ${(c.after ?? c.before)!.type}`),
    ).toEqual([`update a.${Z} A`, `create b.${Z} A`, `delete b.${Z} CNAME`]);
  });

  it('a TTL back to the default is a delete and a create (dnsupdate keeps a TTL it is not sent)', () => {
    const plan = planZone(
      [live(1, `a.${Z}`, 'A', '192.0.2.1', { ttl: 60 })],
      wanted({ name: `a.${Z}`, type: 'A', value: '192.0.2.1' }),
      nobody,
    );
    expect(plan.changes).toMatchObject([{ action: 'update', replace: true }]);
    expect(stepsOf(plan.changes).map((p) => p.map((s) => s.call))).toEqual([['create'], ['delete']]);
  });

  it('orders calls so nothing disappears on the way, except what a CNAME needs gone first', () => {
    const plan = planZone(
      [
        live(1, `a.${Z}`, 'A', '192.0.2.1'),
        live(2, `b.${Z}`, 'CNAME', Z),
        live(3, `old.${Z}`, 'A', '192.0.2.9'),
        live(4, `c.${Z}`, 'TXT', 'x'),
      ],
      wanted(
        { name: `a.${Z}`, type: 'CNAME', value: Z },
        { name: `b.${Z}`, type: 'A', value: '192.0.2.2' },
        { name: `new.${Z}`, type: 'A', value: '192.0.2.3' },
        { name: `c.${Z}`, type: 'TXT', value: 'y' },
      ),
      nobody,
    );
    const phases = stepsOf(plan.changes).map((p) => p.map((s) => `${s.call} ${s.record.name} ${s.record.type}`).sort());
    expect(phases).toEqual([
      [`delete a.${Z} A`, `delete b.${Z} CNAME`],
      [`create a.${Z} CNAME`, `create b.${Z} A`, `create new.${Z} A`, `update c.${Z} TXT`],
      [`delete old.${Z} A`],
    ]);
  });

  it('ownership leaves both sides alone: the agent hosts, ACME TXT, --ignore patterns, SOA, apex NS, unmanaged types', () => {
    const owner = ownership({
      zone: Z,
      hosts: [`home.${Z}=::1:2`],
      ignore: ['legacy*', '@:TXT', 'x.*.example.com.:A'],
    });
    expect(owner({ name: `home.${Z}`, type: 'AAAA' })).toBe("one of the agent's hosts, DDEDGE_HOSTS or --host");
    expect(owner({ name: `home.${Z}`, type: 'TXT' })).toBeUndefined();
    expect(owner({ name: `_acme-challenge.www.${Z}`, type: 'TXT' })).toMatch(/ACME/);
    expect(owner({ name: `legacy-db.${Z}`, type: 'MX' })).toBe('--ignore legacy*');
    expect(owner({ name: Z, type: 'TXT' })).toBe('--ignore @:TXT');
    expect(owner({ name: Z, type: 'A' })).toBeUndefined();
    expect(owner({ name: `x.y.${Z}`, type: 'A' })).toBe('--ignore x.*.example.com.:A');
    expect(owner({ name: Z, type: 'NS' })).toMatch(/apex NS/);
    expect(owner({ name: `sub.${Z}`, type: 'NS' })).toBeUndefined();
    expect(owner({ name: Z, type: 'SOA' })).toMatch(/SOA/);
    expect(owner({ name: Z, type: 'PTR' })).toMatch(/not managed/);
  });

  it('--keep-unlisted creates what is missing and deletes or rewrites nothing', () => {
    const plan = planZone(
      [live(1, `a.${Z}`, 'A', '192.0.2.1'), live(2, `b.${Z}`, 'A', '192.0.2.2')],
      wanted({ name: `a.${Z}`, type: 'A', value: '192.0.2.5' }),
      nobody,
      { keepUnlisted: true },
    );
    expect(summarize(plan)).toEqual({ create: 1, update: 0, delete: 0, unchanged: 0 });
    expect(plan.kept.map((k) => k.reason)).toEqual([
      'not in the file (--keep-unlisted)',
      'not in the file (--keep-unlisted)',
    ]);
  });
});

describe('safety', () => {
  const zoneOf = (n: number) => Array.from({ length: n }, (_, i) => live(i, `h${i}.${Z}`, 'A', '192.0.2.1'));
  it('more than 30% of 10+ records changed or deleted needs --force; creates do not count; smaller zones are not held to it', () => {
    const keepFirst = (n: number, total: number, extra: ZoneRecord[] = []) =>
      planZone(
        zoneOf(total),
        wanted(
          ...zoneOf(total)
            .slice(0, n)
            .map(({ entityID: _e, ...r }) => r as ZoneRecord),
          ...extra,
        ),
        nobody,
      );
    expect(safetyProblems(keepFirst(7, 10))).toEqual([]);
    expect(safetyProblems(keepFirst(6, 10))[0]).toMatch(/4 of the zone's 10 records \(40%/);
    expect(safetyProblems(keepFirst(1, 9))).toEqual([]);
    expect(
      safetyProblems(
        keepFirst(
          10,
          10,
          zoneOf(30)
            .slice(10)
            .map(({ entityID: _e, ...r }) => r as ZoneRecord),
        ),
      ),
    ).toEqual([]);
  });
  it('deleting the last address at the apex needs --force; changing it or creating one there does not', () => {
    expect(
      safetyProblems(
        planZone(
          [live(1, Z, 'A', '192.0.2.1'), live(2, `www.${Z}`, 'A', '192.0.2.2')],
          wanted({ name: `www.${Z}`, type: 'A', value: '192.0.2.2' }),
          nobody,
        ),
      ),
    ).toEqual([`it would delete every A/AAAA record at the apex (${Z}: 1)`]);
    expect(
      safetyProblems(
        planZone(
          [live(1, Z, 'A', '192.0.2.1'), live(2, `www.${Z}`, 'A', '192.0.2.2')],
          wanted({ name: Z, type: 'A', value: '192.0.2.9' }, { name: `www.${Z}`, type: 'A', value: '192.0.2.2' }),
          nobody,
        ),
      ),
    ).toEqual([]);
    expect(safetyProblems(planZone([], wanted({ name: Z, type: 'A', value: '192.0.2.1' }), nobody))).toEqual([]);
  });
});

describe('the order of the calls, at the edges', () => {
  const rec = (name: string, type: string, value: string) => ({ name, type, value }) as ZoneRecord;
  const at = `a.${Z}`;

  it('an update in place is no create: a delete at its name keeps its place at the end', () => {
    const cname = live(1, at, 'CNAME', `x.${Z}`);
    const phases = stepsOf([
      { action: 'update', before: cname, after: rec(at, 'CNAME', `y.${Z}`) },
      { action: 'delete', before: live(2, at, 'TXT', 't') },
    ]);
    expect(phases.map((p) => p.map((s) => s.call))).toEqual([['update'], ['delete']]);
  });

  it('a CNAME created at a name stays a CNAME name when other records are created there after it', () => {
    const phases = stepsOf([
      { action: 'create', after: rec(at, 'CNAME', `x.${Z}`) },
      { action: 'create', after: rec(at, 'TXT', 't') },
      { action: 'delete', before: live(1, at, 'A', '192.0.2.1') },
    ]);
    expect(phases.map((p) => p.map((s) => `${s.call} ${s.record.type}`))).toEqual([
      ['delete A'],
      ['create CNAME', 'create TXT'],
    ]);
  });

  it('callCount counts the calls of every phase', () => {
    const a = live(1, at, 'A', '192.0.2.1');
    expect(
      callCount(
        stepsOf([
          { action: 'create', after: rec(at, 'CNAME', `x.${Z}`) },
          { action: 'delete', before: a },
        ]),
      ),
    ).toBe(2);
    expect(callCount([])).toBe(0);
  });
});

describe('the plan, value by value', () => {
  const a = (name: string, value: string, extra: Partial<ZoneRecord> = {}): ZoneRecord =>
    ({ name, type: 'A', value, ...extra }) as ZoneRecord;
  const shown = (changes: Change[]) =>
    changes.map(
      (c) =>
        `${c.action} ${c.before?.entityID ?? '-'} -> ${c.after ? `${c.after.name} ${c.after.value} ${c.after.ttl ?? '-'}` : '-'}`,
    );
  const n = `n.${Z}`;

  it('a live record keeps its value when the file still holds it, and another value is created', () => {
    const plan = planZone(
      [live(1, n, 'A', '192.0.2.2', { ttl: 60 })],
      wanted(a(n, '192.0.2.1'), a(n, '192.0.2.2', { ttl: 300 })),
      nobody,
    );
    expect(shown(plan.changes)).toEqual([`update 1 -> ${n} 192.0.2.2 300`, `create - -> ${n} 192.0.2.1 -`]);
    expect(plan.changes[0]).toStrictEqual({
      action: 'update',
      before: plan.live[0],
      after: { name: n, type: 'A', value: '192.0.2.2', ttl: 300 },
    });
    const same = planZone([live(1, n, 'A', '192.0.2.1')], wanted(a(n, '192.0.2.1'), a(n, '192.0.2.2')), nobody);
    expect(same.unchanged.map((r) => r.entityID)).toEqual(['1']);
    expect(shown(same.changes)).toEqual([`create - -> ${n} 192.0.2.2 -`]);
  });

  it('of several live records, one of the same value is updated, the rest paired in the order of their values', () => {
    const have = [
      live(1, n, 'A', '192.0.2.1', { ttl: 60 }),
      live(2, n, 'A', '192.0.2.0'),
      live(3, n, 'A', '192.0.2.5'),
    ];
    const plan = planZone(have, wanted(a(n, '192.0.2.4'), a(n, '192.0.2.1', { ttl: 300 }), a(n, '192.0.2.3')), nobody);
    expect(shown(plan.changes)).toEqual([
      `update 1 -> ${n} 192.0.2.1 300`,
      `update 2 -> ${n} 192.0.2.3 -`,
      `update 3 -> ${n} 192.0.2.4 -`,
    ]);
  });

  it('creates come in the order of names, types and values, whatever the order of the file', () => {
    const plan = planZone(
      [],
      wanted(a(`b.${Z}`, '192.0.2.9'), a(`a.${Z}`, '192.0.2.3'), a(`a.${Z}`, '192.0.2.1'), a(`a.${Z}`, '192.0.2.2')),
      nobody,
    );
    expect(shown(plan.changes)).toEqual([
      `create - -> a.${Z} 192.0.2.1 -`,
      `create - -> a.${Z} 192.0.2.2 -`,
      `create - -> a.${Z} 192.0.2.3 -`,
      `create - -> b.${Z} 192.0.2.9 -`,
    ]);
  });

  it('changes come in the order of name, tab, type, also where one name begins with another', () => {
    // Lone creates, a name of two types, a delete and an update, in no order; `x.${Z}` begins
    // `x.${Z}.${Z}` and `x-.${Z}`-like neighbours sort around it as the text `name\ttype` does.
    const names = [`x.${Z}.${Z}`, `x.${Z}`, `x0.${Z}`, `x-y.${Z}`, `w.${Z}`, `x.${Z}.${Z}.${Z}`, `y.${Z}`];
    const plan = planZone(
      [live(1, `x.${Z}`, 'TXT', 'old'), live(2, `w.${Z}`, 'A', '192.0.2.7'), live(3, `zz.${Z}`, 'A', '192.0.2.8')],
      wanted(
        ...names.map((name, i) => a(name, `192.0.2.${i + 1}`)),
        { name: `x.${Z}`, type: 'TXT', value: 'new' },
        { name: `x.${Z}.${Z}`, type: 'AAAA', value: '2001:db8::1' },
      ),
      nobody,
    );
    const key = (c: Change) => `${(c.after ?? c.before)!.name}\t${(c.after ?? c.before)!.type}`;
    const keys = plan.changes.map(key);
    expect(keys).toEqual([...keys].sort());
    expect(keys).toEqual([
      `w.${Z}\tA`,
      `x-y.${Z}\tA`,
      `x.${Z}\tA`,
      `x.${Z}\tTXT`,
      `x.${Z}.${Z}\tA`,
      `x.${Z}.${Z}\tAAAA`,
      `x.${Z}.${Z}.${Z}\tA`,
      `x0.${Z}\tA`,
      `y.${Z}\tA`,
      `zz.${Z}\tA`,
    ]);
  });

  it('what each name and type leaves unchanged or keeps comes in the order of name and type, in its own order within', () => {
    const have = [
      live(1, `b.${Z}`, 'A', '192.0.2.2'),
      live(2, `b.${Z}`, 'A', '192.0.2.1'),
      live(3, `a.${Z}`, 'TXT', 'z'),
      live(4, `a.${Z}`, 'A', '192.0.2.9'),
      live(5, `a.${Z}`, 'TXT', 'y'),
      live(6, `c.${Z}`, 'A', '192.0.2.7'),
      live(7, `a.${Z}`, 'AAAA', '2001:db8::1'),
    ];
    const file = wanted(
      a(`b.${Z}`, '192.0.2.2'),
      a(`b.${Z}`, '192.0.2.1'),
      a(`c.${Z}`, '192.0.2.7'),
      { name: `a.${Z}`, type: 'TXT', value: 'z' },
      { name: `a.${Z}`, type: 'TXT', value: 'y' },
      a(`a.${Z}`, '192.0.2.8'),
    );
    const plan = planZone(have, file, nobody, { keepUnlisted: true });
    expect(plan.unchanged.map((r) => r.entityID)).toEqual(['6', '5', '3', '2', '1']);
    expect(plan.kept.map((k) => `${k.name} ${k.type} ${k.value}`)).toEqual([
      `a.${Z} A 192.0.2.9`,
      `a.${Z} AAAA 2001:db8::1`,
    ]);
    expect(shown(plan.changes)).toEqual([`create - -> a.${Z} 192.0.2.8 -`]);
  });

  it('a record of another type with the same text, or another priority, is not the same record', () => {
    const txt = planZone([live(1, n, 'TXT', '192.0.2.1')], wanted(a(n, '192.0.2.1')), nobody);
    expect(summarize(txt)).toEqual({ create: 1, update: 0, delete: 1, unchanged: 0 });
    const mx = (priority: number): ZoneRecord => ({ name: n, type: 'MX', priority, value: 'mx.example.net' });
    const moved = planZone([live(1, n, 'MX', 'mx.example.net', { priority: 10 })], wanted(mx(20)), nobody);
    expect(summarize(moved)).toEqual({ create: 0, update: 1, delete: 0, unchanged: 0 });
  });

  it('a TTL changed from one number to another is an update in place, not a replace', () => {
    const plan = planZone([live(1, n, 'A', '192.0.2.1', { ttl: 60 })], wanted(a(n, '192.0.2.1', { ttl: 300 })), nobody);
    expect(plan.changes).toHaveLength(1);
    expect(plan.changes[0]).not.toHaveProperty('replace');
    expect(plan.kept).toEqual([]);
  });
});
