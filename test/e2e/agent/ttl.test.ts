// --ttl / DDEDGE_TTL: the TTL of the agent's records, as ddclient's and favonia's users set it.
// Only the registrar API can set one; dynamic DNS cannot, and ddedge says so instead of
// ignoring it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentEnv, providerCalls, withApi } from '../../helpers/agent-env.js';
import { runDist, runMain } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();

const entry = (name: string) =>
  sandbox.model.services.flatMap((s) => s.dns).find((e) => e.name === name && e.type === 'A');

describe('--ttl', () => {
  it('sends the TTL with the address through the API; a TTL alone is a change; an unchanged one sends nothing', async () => {
    const env = agentEnv(sandbox, withApi(sandbox));
    const first = await runDist(['update', '--ip', '81.0.2.15', '--ttl', '300', '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).hosts[0]).toMatchObject({
      host: 'home.example.com',
      address: '81.0.2.15',
      action: 'updated',
      via: 'api',
    });
    expect(entry('home.example.com')).toMatchObject({ value: '81.0.2.15', ttl: '300' });
    expect(sandbox.calls.get('dyndns')).toBeUndefined();
    const state = JSON.parse(readFileSync(join(env.DDEDGE_STATE_DIR!, 'state.json'), 'utf8'));
    expect(state.records['home.example.com/A']).toMatchObject({ address: '81.0.2.15', ttl: 300 });

    const calls = providerCalls(sandbox);
    expect((await runMain(['update', '--ip', '81.0.2.15', '--ttl', '300'], env)).stdout).toBe(
      'home.example.com A 81.0.2.15 unchanged\n',
    );
    expect(providerCalls(sandbox)).toBe(calls);

    // The address is the same and cached: the new TTL is sent now, not after --max-age.
    const changed = await runMain(['update', '--ip', '81.0.2.15'], { ...env, DDEDGE_TTL: '600' });
    expect(changed).toMatchObject({ code: 0, stdout: 'home.example.com A 81.0.2.15 updated\n' });
    expect(entry('home.example.com')).toMatchObject({ value: '81.0.2.15', ttl: '600' });
  });

  it('an address changed with --ttl costs one call: the entry remembered in the state is updated without a list', async () => {
    const env = agentEnv(sandbox, withApi(sandbox));
    expect((await runDist(['update', '--ip', '81.0.2.15', '--ttl', '300'], env)).code).toBe(0);
    expect(sandbox.calls.get('service/dnslist')).toBe(1);

    const before = new Map(sandbox.calls);
    const moved = await runDist(['update', '--ip', '81.0.2.16', '--ttl', '300'], env);
    expect(moved).toMatchObject({ code: 0, stdout: 'home.example.com A 81.0.2.16 updated\n' });
    expect(entry('home.example.com')).toMatchObject({ value: '81.0.2.16', ttl: '300' });
    const made = [...sandbox.calls].filter(([op, n]) => n !== (before.get(op) ?? 0));
    expect(made).toEqual([['service/dnsupdate', (before.get('service/dnsupdate') ?? 0) + 1]]);
  });

  it('an entry deleted outside: the remembered one is refused, the zone listed once, the record made again', async () => {
    const env = agentEnv(sandbox, withApi(sandbox));
    expect((await runDist(['update', '--ip', '81.0.2.15', '--ttl', '300'], env)).code).toBe(0);
    const dns = sandbox.model.services.find((s) => s.name === 'example.com')!.dns;
    dns.splice(dns.indexOf(entry('home.example.com')!), 1);

    const calls = providerCalls(sandbox);
    const again = await runDist(['update', '--ip', '81.0.2.17', '--ttl', '300'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(entry('home.example.com')).toMatchObject({ value: '81.0.2.17', ttl: '300' });
    // The refused update, one list, one create: no second try of the forgotten entry.
    expect(providerCalls(sandbox) - calls).toBe(3);
    const moved = providerCalls(sandbox);
    expect((await runDist(['update', '--ip', '81.0.2.18', '--ttl', '300'], env)).code).toBe(0);
    expect(providerCalls(sandbox) - moved).toBe(1);
  });

  it('a record the API creates gets the TTL', async () => {
    const env = agentEnv(sandbox, { ...withApi(sandbox), DDEDGE_HOSTS: 'new.example.com', DDEDGE_TTL: '3600' });
    expect((await runMain(['update', '--ip', '81.0.2.15'], env)).code).toBe(0);
    expect(entry('new.example.com')).toMatchObject({ value: '81.0.2.15', ttl: '3600' });
  });

  it.each([
    [['--ttl', '300', '--via', 'dyndns'], {}, '--ttl: dynamic DNS cannot set a TTL'],
    [[], { DDEDGE_TTL: '300', DDEDGE_VIA: 'dyndns' }, 'DDEDGE_TTL: dynamic DNS cannot set a TTL'],
    [
      ['--ttl', '300'],
      { noApi: '1' },
      '--ttl is set through the registrar API (dynamic DNS cannot set a TTL): set DDEDGE_API_USER and DDEDGE_API_PASSWORD',
    ],
    [['--ttl', '30'], {}, '--ttl: "30" is not a whole number from 60 to 604800'],
    [['--ttl', '5m'], {}, '--ttl: "5m" is not a whole number from 60 to 604800'],
  ])('%j %j: exit 2, no request', async (args, extra, message) => {
    const { noApi, ...env } = extra as Record<string, string>;
    const result = await runMain(
      ['update', '--ip', '81.0.2.15', ...args],
      agentEnv(sandbox, { ...(noApi ? {} : withApi(sandbox)), ...env }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(providerCalls(sandbox)).toBe(0);
  });
});
