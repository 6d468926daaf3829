import { describe, expect, it } from 'vitest';
import { ProviderGate } from '../../../src/agent/provider-gate.js';
import { ApiClient } from '../../../src/api/client.js';
import { service } from '../../../src/api/endpoints/service.js';
import { undiciTransport } from '../../../src/http/undici-transport.js';
import { activeBackoff, backoffDelayMs, MAX_BACKOFF_MS, nextBackoff } from '../../../src/state/backoff.js';
import { BudgetSpentError, CallBudget } from '../../../src/state/budget.js';
import { emptyState, readState, stateFile, type State } from '../../../src/state/state.js';
import { writeFileSync } from 'node:fs';
import { tempDir } from '../../helpers/cli.js';
import { envelope, MOCK_ORIGIN, useMockAgent } from '../../helpers/mock-api.js';

const at = (iso: string) => () => new Date(iso);

describe('the hourly call budget', () => {
  it('refuses the call past the limit and says when calls resume', () => {
    const state = emptyState();
    const budget = new CallBudget(state, 3, at('2026-11-22T08:00:30Z'), () => {});
    budget.take();
    budget.take();
    budget.take();
    expect(() => budget.take()).toThrow(BudgetSpentError);
    expect(() => budget.take()).toThrow(
      /budget of 3 provider calls an hour is spent; calls resume at 2026-11-22T09:01:00Z/,
    );
    expect(budget.calls).toBe(3);
  });

  it('reserves a batch all or none, says when that many calls resume, and gives back what the batch did not use', () => {
    const state = emptyState();
    new CallBudget(state, 5, at('2026-11-22T08:00:00Z'), () => {}).take();
    new CallBudget(state, 5, at('2026-11-22T08:10:00Z'), () => {}).take();
    const budget = new CallBudget(state, 5, at('2026-11-22T08:20:00Z'), () => {});
    expect(budget.left()).toBe(3);
    // Four calls need the call of 08:00 gone (09:01); five need the one of 08:10 gone too (09:11).
    expect(() => budget.reserve(4)).toThrow(/calls resume at 2026-11-22T09:01:00Z/);
    expect(() => budget.reserve(5)).toThrow(/calls resume at 2026-11-22T09:11:00Z/);
    expect(budget.left()).toBe(3);
    budget.reserve(3);
    expect(budget.left()).toBe(0);
    budget.take();
    budget.settle();
    expect(Object.values(state.calls!).reduce((a, b) => a + b, 0)).toBe(3);
    expect(() => budget.reserve(6)).toThrow(BudgetSpentError);
  });

  it('counts across cycles through the state, and forgets calls older than an hour', () => {
    const state = emptyState();
    new CallBudget(state, 2, at('2026-11-22T08:00:00Z'), () => {}).take();
    new CallBudget(state, 2, at('2026-11-22T08:30:00Z'), () => {}).take();
    expect(() => new CallBudget(state, 2, at('2026-11-22T08:59:00Z'), () => {}).take()).toThrow(
      /resume at 2026-11-22T09:01:00Z/,
    );
    const later = new CallBudget(state, 2, at('2026-11-22T09:01:00Z'), () => {});
    later.take();
    expect(() => later.take()).toThrow(/resume at 2026-11-22T09:31:00Z/);
  });

  it('reserves calls in the state before making them, in doubling blocks, and gives back the unused part', () => {
    const state: State = emptyState();
    const written: number[] = [];
    const sum = () => Object.values(state.calls ?? {}).reduce((a, b) => a + b, 0);
    const budget = new CallBudget(state, 60, at('2026-11-22T08:00:00Z'), () => written.push(sum()));
    for (let i = 0; i < 5; i++) budget.take();
    // Written before call 1, 2, 3 and 5: a kill at any point leaves at least the calls made.
    expect(written).toEqual([1, 2, 4, 8]);
    budget.settle();
    expect(sum()).toBe(5);
  });

  it('a call whose reservation cannot be written is not made', () => {
    const state = emptyState();
    const budget = new CallBudget(state, 60, at('2026-11-22T08:00:00Z'), () => {
      throw new Error('ENOSPC');
    });
    expect(() => budget.take()).toThrow('ENOSPC');
    expect(budget.calls).toBe(0);
    expect(Object.values(state.calls ?? {})).toEqual([]);
  });

  it('a clock set back does not block calls for longer than an hour', () => {
    const state = emptyState();
    state.calls = { [String(Math.floor(Date.parse('2027-01-01T00:00:00Z') / 60_000))]: 999 };
    expect(() => new CallBudget(state, 5, at('2026-11-22T08:00:00Z'), () => {}).take()).not.toThrow();
  });

  const minuteOf = (iso: string) => String(Math.floor(Date.parse(iso) / 60_000));

  it('counts calls stamped up to an hour ahead (a clock set back), not 61; a count of 0 or less is no call', () => {
    const state = emptyState();
    // At 08:00, a count of 09:00 weighs on the budget; one of 09:01 is beyond the window.
    state.calls = { [minuteOf('2026-11-22T09:00:00Z')]: 2, [minuteOf('2026-11-22T09:01:00Z')]: 7 };
    expect(new CallBudget(state, 5, at('2026-11-22T08:00:00Z'), () => {}).left()).toBe(3);
    state.calls = { [minuteOf('2026-11-22T07:50:00Z')]: -4, [minuteOf('2026-11-22T07:55:00Z')]: 0 };
    const budget = new CallBudget(state, 5, at('2026-11-22T08:00:00Z'), () => {});
    expect(budget.left()).toBe(5);
    budget.take();
    expect(state.calls).toEqual({ [minuteOf('2026-11-22T08:00:00Z')]: 1 });
  });

  it('reserves in the state before the calls, writes nothing for none, nothing when the write fails', () => {
    const state = emptyState();
    const written: (Record<string, number> | undefined)[] = [];
    const budget = new CallBudget(state, 5, at('2026-11-22T08:00:00Z'), () => written.push(state.calls));
    budget.reserve(0);
    expect(written).toEqual([]);
    expect(state.calls).toBeUndefined();
    budget.reserve(3);
    expect(written).toEqual([{ [minuteOf('2026-11-22T08:00:00Z')]: 3 }]);
    const failing = new CallBudget(state, 5, at('2026-11-22T08:01:00Z'), () => {
      throw new Error('ENOSPC');
    });
    expect(() => failing.reserve(2)).toThrow('ENOSPC');
    expect(state.calls).toEqual({ [minuteOf('2026-11-22T08:00:00Z')]: 3 });
    expect(failing.left()).toBe(2);
  });

  it('gives back the unused part of every reservation, the latest first', () => {
    const state = emptyState();
    let now = '2026-11-22T08:00:00Z';
    const budget = new CallBudget(
      state,
      10,
      () => new Date(now),
      () => {},
    );
    budget.reserve(3);
    now = '2026-11-22T08:05:00Z';
    budget.reserve(2);
    budget.take();
    budget.settle();
    expect(state.calls).toEqual({ [minuteOf('2026-11-22T08:00:00Z')]: 1 });
  });

  it('a batch larger than the limit is refused until an hour on, not as though it could resume now', () => {
    const budget = new CallBudget(emptyState(), 5, at('2026-11-22T08:00:30Z'), () => {});
    expect(() => budget.reserve(6)).toThrow(/calls resume at 2026-11-22T09:01:30Z/);
  });
});

describe('every API call passes through the gate: pages and retries included', () => {
  const mock = useMockAgent();
  it('counts each page of a list and each retry, and stops at the budget', async () => {
    const agent = mock.create();
    const pool = agent.get(MOCK_ORIGIN);
    const entry = (i: number) => ({
      entityID: String(i),
      name: `h${i}.example.com`,
      type: 'A',
      ttl: 900,
      priority: 0,
      value: '192.0.2.1',
    });
    pool.intercept({ path: '/service/dnslist/', method: 'POST' }).reply(503, 'busy');
    for (let page = 1; page <= 3; page++) {
      pool
        .intercept({ path: '/service/dnslist/', method: 'POST', body: (b) => b.includes(`page=${page}`) })
        .reply(200, envelope({ queryInfo: { page, pageLength: 1, results: 1, total: 5 }, dns: [entry(page)] }));
    }
    const state = emptyState();
    const gate = new ProviderGate(
      new CallBudget(
        state,
        4,
        () => new Date(),
        () => {},
      ),
    );
    const api = new ApiClient({
      url: MOCK_ORIGIN,
      user: 'u',
      password: 'p-123456',
      transport: gate.wrap(undiciTransport(agent)),
      attempts: 2,
    });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const page of api.pages<{ entityID: string }>('service', service.dnsList, {
          serviceName: 'example.com',
          pageLength: 1,
        }))
          seen.push(...page.items.map((e) => e.entityID));
      })(),
    ).rejects.toThrow(BudgetSpentError);
    // 503 + page 1 (retried), page 2, page 3: four calls, then the fifth is refused unsent.
    expect(seen).toEqual(['1', '2', '3']);
    expect(Object.values(state.calls!).reduce((a, b) => a + b, 0)).toBe(4);
  });
});

describe('per-record backoff', () => {
  const now = new Date('2026-11-22T08:00:00Z');
  it('doubles with each refusal, up to a day', () => {
    expect([1, 2, 3, 4].map(backoffDelayMs)).toEqual([300_000, 600_000, 1_200_000, 2_400_000]);
    expect(backoffDelayMs(12)).toBe(MAX_BACKOFF_MS);
    expect(backoffDelayMs(1000)).toBe(MAX_BACKOFF_MS);
    let backoff = nextBackoff(undefined, 'cfg', 7, now);
    backoff = nextBackoff(backoff, 'cfg', 7, now);
    expect(backoff).toMatchObject({ failures: 2, until: '2026-11-22T08:10:00.000Z', exitCode: 7 });
  });
  it('starts over when the configuration changes', () => {
    const backoff = nextBackoff(nextBackoff(undefined, 'cfg', 7, now), 'cfg', 7, now);
    expect(activeBackoff(backoff, 'cfg', now)).toBe(backoff);
    expect(activeBackoff(backoff, 'other', now)).toBeUndefined();
    expect(nextBackoff(backoff, 'other', 7, now).failures).toBe(1);
    expect(activeBackoff(backoff, 'cfg', new Date('2026-11-22T08:10:00Z'))).toBeUndefined();
  });
});

describe('state format', () => {
  it('an old state.json (no call counts, no backoff) still reads', () => {
    const dir = tempDir();
    const old = {
      version: 1,
      records: {
        'h.example.com/A': {
          host: 'h.example.com',
          type: 'A',
          address: '81.0.2.15',
          sentAt: '2026-01-01T00:00:00.000Z',
          via: 'dyndns',
        },
      },
      lastSuccessAt: '2026-01-01T00:00:00.000Z',
    };
    writeFileSync(stateFile(dir), JSON.stringify(old));
    expect(readState(dir)).toEqual({ state: old });
  });
  it('call counts that are not counts make the file damaged, not trusted', () => {
    const dir = tempDir();
    writeFileSync(stateFile(dir), JSON.stringify({ version: 1, records: {}, calls: { 1: 'many' } }));
    expect(readState(dir).damage).toMatch(/damaged/);
  });
});
