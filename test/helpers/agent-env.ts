import type { Sandbox } from '../../src/sandbox/server.js';
import { baseEnv, tempDir } from './cli.js';

/** Settings for running the built agent against a sandbox, with a fresh state directory. */
export function agentEnv(sandbox: Sandbox, extra: Record<string, string | undefined> = {}): Record<string, string> {
  const { account } = sandbox.model;
  return baseEnv({
    DDEDGE_DYNDNS_URL: sandbox.url,
    DDEDGE_DYNDNS_USER: account.dyndnsUser,
    DDEDGE_DYNDNS_KEY: account.dyndnsKey,
    DDEDGE_STATE_DIR: tempDir('ddedge-state-'),
    DDEDGE_HOSTS: 'home.example.com',
    ...extra,
  });
}

export const withApi = (sandbox: Sandbox): Record<string, string> => ({
  DDEDGE_API_URL: sandbox.url,
  DDEDGE_API_USER: sandbox.model.account.apiUser,
  DDEDGE_API_PASSWORD: sandbox.model.account.apiPassword,
});

export const zoneValue = (sandbox: Sandbox, name: string, type = 'A'): string | undefined =>
  sandbox.model.services.flatMap((s) => s.dns).find((e) => e.name === name && e.type === type)?.value;

export const providerCalls = (sandbox: Sandbox): number => [...sandbox.calls.values()].reduce((a, b) => a + b, 0);
