// Records other parts of ddedge keep, which the gateway leaves alone unless a grant names them
// exactly (`grant "KEY" name NAME`): the agent's hosts (A and AAAA of --host/DDEDGE_HOSTS and of
// the state directory's state file, a container's CNAME of its containers.json) and the ACME
// challenges `ddedge acme present` made (its challenges.json). Who keeps what is the zone's
// ownership policy (zone/plan/ownership.ts), the one `zone apply` plans with; here are the
// gateway's inputs to it, its exception for grants and its words. Read at each update: the files
// are small and change under the gateway's feet.
import { readAcmeChallenges } from '../../state/acme-challenges.js';
import { agentRecordsOf, type AgentRecords } from '../../zone/plan/agent-records.js';
import { firstKept, keeper } from '../../zone/plan/ownership.js';
import type { Change } from '../../zone/plan/plan.js';
import type { GatewayKeys } from './keys-file.js';

/** Why a change may not be made by `key`, or undefined when it may. */
export type KeptCheck = (change: Change, key: string) => string | undefined;

export function keptRecords(stateDir: string, zone: string, configuredHosts: string[], keys: GatewayKeys): KeptCheck {
  const hosts = [...configuredHosts];
  let agent: AgentRecords | undefined;
  try {
    agent = agentRecordsOf(stateDir);
    // A host the state file records is kept with its A and AAAA both, as a configured host is.
    for (const record of agent.records) if (record.type !== 'CNAME') hosts.push(record.name);
  } catch {
    // A state file that cannot be read keeps nothing more than the configured hosts.
  }
  // The agent's records themselves too: the CNAME a container asked for (containers.json).
  const keeps = keeper({ zone, hosts, acmeMade: readAcmeChallenges(stateDir).challenges, ...(agent ? { agent } : {}) });
  const namedExactly = (key: string, name: string, type: string) =>
    keys.grants.some(
      (g) =>
        g.key === key &&
        g.rule === 'name' &&
        g.name === name &&
        (!g.types.length || (g.types as string[]).includes(type)),
    );
  return (change, key) => {
    // The provider's records never reach a gateway plan's changes (update/plan.ts): only the agent's and ddedge acme's
    // are judged.
    const found = firstKept(
      [change],
      keeps,
      ({ name, type }, kept) => kept.by === 'provider' || namedExactly(key, name, type),
    );
    if (!found) return undefined;
    const { name, type } = found.record;
    return found.kept.by === 'agent'
      ? `${name} ${type} is kept by the ddedge agent; only a grant naming it exactly (grant "KEY" name ${name} ` +
          `${type}) may change it`
      : `${name} TXT holds a challenge ddedge acme made; only a grant naming it exactly may change it`;
  };
}
