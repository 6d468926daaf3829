// The records the agent keeps, as its state file records them. `--host`/DDEDGE_HOSTS name the
// agent's hosts only in the environment they are set in: a zone apply run by hand, from CI or
// from another unit lacks them, and would revert the address the agent just sent. The state
// directory is shared with the agent, so what it recorded is the authority. Names containers gave
// the agent are in it too: their A and AAAA in the state file, a CNAME (`ddedge.target`) in
// containers.json beside it.
import { containerNamesFile, readContainerNames } from '../../state/container-names.js';
import { readState, stateFile } from '../../state/state.js';
import { canonicalName } from '../../lib/names.js';

/** An agent's host as the provider names it (lower-case punycode, no trailing dot), from --host or the state file. */
export const agentHostName = (host: string): string => canonicalName(host) ?? host.toLowerCase();

interface AgentRecord {
  /** Full lower-case ASCII name, as the provider keeps it. */
  name: string;
  type: 'A' | 'AAAA' | 'CNAME';
  /** A name a container gave: recorded in containers.json, not the state file. */
  fromContainer?: true;
}

export interface AgentRecords {
  /** The state file they were read from (named in the reason a record is kept). */
  file: string;
  /** Where the names containers gave are recorded (named in the reason their CNAMEs are kept). */
  containersFile?: string;
  records: AgentRecord[];
  /** Set when the file existed but could not be used: read as no records, as the agent reads it. */
  damage?: string;
}

/**
 * Every (host, type) the state file holds, whether or not its last send succeeded: a host
 * still failing is one the agent is trying to keep. LAN hosts (`name=<iid>`) are recorded by
 * their name and AAAA. Throws ConfigError when the file cannot be read at all (unreadable is
 * not empty).
 */
export function agentRecordsOf(stateDir: string): AgentRecords {
  const { state, damage } = readState(stateDir);
  const records: AgentRecord[] = Object.values(state.records).map((r) => ({
    name: agentHostName(r.host),
    type: r.type,
  }));
  const containers = readContainerNames(stateDir);
  for (const given of containers.file.names)
    if (given.target) records.push({ name: agentHostName(given.name), type: 'CNAME', fromContainer: true });
  const problems = [damage, containers.damage].filter(Boolean).join('; ');
  return {
    file: stateFile(stateDir),
    containersFile: containerNamesFile(stateDir),
    records,
    ...(problems ? { damage: problems } : {}),
  };
}
