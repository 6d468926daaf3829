// Helpers for the ACME tests: the settings `ddedge acme` needs against a sandbox, and what
// its zone holds.
import type { DnsMessage, DnsRecord } from '../../src/dns/wire/types.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { answerTo } from './hostile-dns.js';
import { withApi } from './agent-env.js';
import { baseEnv, tempDir } from './cli.js';

export function acmeEnv(sandbox: Sandbox, extra: Record<string, string | undefined> = {}): Record<string, string> {
  return baseEnv({ ...withApi(sandbox), DDEDGE_STATE_DIR: tempDir('ddedge-state-'), ...extra });
}

/** The TXT values at `name`, in the zone's order. */
export const challengeValues = (sandbox: Sandbox, name: string): string[] =>
  sandbox.model.services
    .flatMap((s) => s.dns)
    .filter((e) => e.type === 'TXT' && e.name === name)
    .map((e) => e.value);

/** Every zone without its `_acme-challenge` TXT entries: what a challenge must leave unchanged. */
export const zoneWithoutChallenges = (sandbox: Sandbox): string =>
  JSON.stringify(
    sandbox.model.services.map((s) => ({
      name: s.name,
      dns: s.dns.filter((e) => !(e.type === 'TXT' && e.name.startsWith('_acme-challenge.'))),
    })),
  );

/** The TXT records the sandbox's zone holds for the question, as an authoritative server gives them. */
export function zoneAnswer(sandbox: Sandbox, query: DnsMessage): Buffer {
  const name = query.questions[0]!.name;
  const answers: DnsRecord[] = challengeValues(sandbox, name.toLowerCase()).map((value) => ({
    name,
    type: 'TXT',
    ttl: 60,
    value: [value],
  }));
  return answerTo(query, answers);
}
