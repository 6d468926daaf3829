// Records other parts of ddedge keep, which the gateway leaves alone unless a grant names them
// exactly (`grant "KEY" name NAME`): the agent's hosts (A and AAAA of --host/DDEDGE_HOSTS and of
// the state directory's state file, as `zone apply` reads them) and the ACME challenges
// `ddedge acme present` made (its challenges.json). Read at each update: both files are small
// and change under the gateway's feet.
import { lowerName } from '../lib/names.js';
import { readAcmeChallenges } from '../state/acme-challenges.js';
import { readState } from '../state/state.js';
import type { Change } from '../zone/plan/plan.js';
import type { GatewayKeys } from './keys-file.js';

/** Why a change may not be made by `key`, or undefined when it may. */
export type KeptCheck = (change: Change, key: string) => string | undefined;

export function keptRecords(stateDir: string, configuredHosts: string[], keys: GatewayKeys): KeptCheck {
  const hosts = new Set(configuredHosts.map((h) => lowerName(h.split('=')[0]!)));
  try {
    for (const record of Object.values(readState(stateDir).state.records)) hosts.add(record.host.toLowerCase());
  } catch {
    // A state file that cannot be read keeps nothing more than the configured hosts.
  }
  const challenges = readAcmeChallenges(stateDir).challenges;
  const namedExactly = (key: string, name: string, type: string) => keys.grants.some((g) => g.key === key && g.rule === 'name' && g.name === name && (!g.types.length || (g.types as string[]).includes(type)));
  return (change, key) => {
    for (const record of [change.before, change.after]) {
      if (!record) continue;
      const { name, type } = record;
      if ((type === 'A' || type === 'AAAA') && hosts.has(name) && !namedExactly(key, name, type)) return `${name} ${type} is kept by the ddedge agent; only a grant naming it exactly (grant "KEY" name ${name} ${type}) may change it`;
      if (type === 'TXT' && challenges.some((c) => c.name === name && c.value === record.value) && !namedExactly(key, name, type)) return `${name} TXT holds a challenge ddedge acme made; only a grant naming it exactly may change it`;
    }
    return undefined;
  };
}
