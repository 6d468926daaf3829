// The one ownership policy as both callers ask it: `zone apply` (every _acme-challenge TXT kept,
// the reason in the plan) and the gateway (only ddedge acme's challenges kept, a change judged
// record by record with the key's exception). Names of the agent's hosts are normalised once,
// as the provider keeps them.
import { describe, expect, it } from 'vitest';
import { firstKept, keeper, providerKeeps } from '../../../../src/zone/plan/ownership.js';

const Z = 'example.com';

describe('the ownership policy', () => {
  it("keeps the provider's records first, whatever else would keep them", () => {
    const keeps = keeper({ zone: Z, hosts: [Z] });
    expect(keeps({ name: Z, type: 'SOA' })).toEqual({ by: 'provider', reason: 'left to the provider (SOA)' });
    expect(keeps({ name: Z, type: 'NS' })).toEqual({ by: 'provider', reason: 'left to the provider (apex NS)' });
    expect(keeps({ name: `sub.${Z}`, type: 'NS' })).toBeUndefined();
    expect(providerKeeps({ name: Z, type: 'HINFO' }, Z)).toEqual({
      by: 'provider',
      reason: 'type HINFO is not managed by ddedge',
    });
    expect(keeps({ name: Z, type: 'A' })).toEqual({
      by: 'agent',
      reason: "one of the agent's hosts, DDEDGE_HOSTS or --host",
    });
  });

  it("keeps an agent's host under the name the provider gives it: lower case, punycode, no trailing dot, interface id aside", () => {
    const keeps = keeper({ zone: Z, hosts: ['Bücher.Example.com.', 'NAS.example.com=::1e2:3ff:fe4a:5b6c'] });
    for (const name of [`xn--bcher-kva.${Z}`, `nas.${Z}`])
      for (const type of ['A', 'AAAA']) expect(keeps({ name, type })?.by, `${name} ${type}`).toBe('agent');
    expect(keeps({ name: `nas.${Z}`, type: 'TXT' })).toBeUndefined();
  });

  it('keeps every ACME challenge for zone apply, only the ones ddedge acme made for the gateway', () => {
    const challenge = { name: `_acme-challenge.www.${Z}`, type: 'TXT', value: 'made' };
    const other = { ...challenge, value: 'another client' };
    expect(keeper({ zone: Z, hosts: [] })(other)).toEqual({
      by: 'acme',
      reason: 'an ACME challenge (_acme-challenge TXT)',
    });
    const gateway = keeper({ zone: Z, hosts: [], acmeMade: [{ name: challenge.name, value: 'made' }] });
    expect(gateway(challenge)?.by).toBe('acme');
    expect(gateway(other)).toBeUndefined();
  });

  it("passes a plan's changes through: the first record kept, before or after, unless the caller is allowed it", () => {
    const keeps = keeper({ zone: Z, hosts: [`home.${Z}`] });
    const changes = [
      { after: { name: `www.${Z}`, type: 'A', value: '192.0.2.1' } },
      {
        before: { name: `home.${Z}`, type: 'A', value: '192.0.2.2' },
        after: { name: `home.${Z}`, type: 'A', value: '192.0.2.3' },
      },
    ];
    expect(firstKept(changes, keeps)).toEqual({
      record: changes[1]!.before,
      kept: { by: 'agent', reason: "one of the agent's hosts, DDEDGE_HOSTS or --host" },
    });
    expect(firstKept(changes, keeps, (record) => record.name === `home.${Z}`)).toBeUndefined();
    expect(firstKept(changes.slice(0, 1), keeps)).toBeUndefined();
  });
});
