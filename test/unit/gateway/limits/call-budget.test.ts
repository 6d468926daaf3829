// The gateway's hourly call budget on a clock the test moves: a spent budget is said once, however
// many calls are refused meanwhile (a refresh every second must not repeat it), and said again
// to be over once the clock reaches the hour when calls resume.
import { describe, expect, it } from 'vitest';
import type { WireRequest, WireResponse } from '../../../../src/http/transport.js';
import { GatewayBudget } from '../../../../src/gateway/limits/call-budget.js';
import { createLogger } from '../../../../src/lib/log.js';
import { BudgetSpentError } from '../../../../src/state/budget.js';
import { tempDir } from '../../../helpers/cli.js';

const answer = {
  status: 200,
  headers: {},
  body: Object.assign((async function* () {})(), { destroy: () => undefined }),
} as WireResponse;
const request = (): WireRequest => ({
  url: new URL('http://127.0.0.1/service/dnslist/'),
  method: 'POST',
  headers: {},
  signal: new AbortController().signal,
});

describe('GatewayBudget', () => {
  it('says once that the budget is spent, refuses every call until the hour turns, then says calls resume', async () => {
    const lines: string[] = [];
    let now = Date.parse('2026-01-01T10:20:00Z');
    const budget = new GatewayBudget(
      tempDir('ddedge-budget-'),
      2,
      createLogger({ level: 'info', format: 'text', write: (l) => lines.push(l) }),
      () => new Date(now),
    );
    const transport = budget.wrap({ send: async () => answer });
    await transport.send(request());
    await transport.send(request());
    for (let i = 0; i < 5; i++) await expect(transport.send(request())).rejects.toBeInstanceOf(BudgetSpentError);
    expect(lines.filter((l) => /budget of 2 provider calls an hour is spent/.test(l))).toHaveLength(1);
    expect(budget.refused).toBe(5);
    const resume = budget.spent()!;
    expect(resume.getTime()).toBeGreaterThan(now);
    now = resume.getTime() - 1;
    expect(budget.spent()).toEqual(resume);
    now = resume.getTime();
    expect(budget.spent()).toBeUndefined();
    expect(lines.at(-1)).toMatch(/the call budget allows calls again/);
    await transport.send(request());
    expect(budget.sent.get('service/dnslist')).toBe(3);
  });
});
