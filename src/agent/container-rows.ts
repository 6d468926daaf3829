// Where a record of the agent came from, for `status`, /status and the status page: the
// containers that gave its name (--containers), whether it is held after they stopped and until
// when, and whether the name held records before (never deleted). Read from the state directory
// at request time, as the state is.
import type { RecordType } from '../lib/address.js';
import { readContainerNames, type ContainerName } from '../state/container-names.js';

export interface ContainerOrigins {
  names: ContainerName[];
  /** The file could not be used (already said how). */
  damage?: string;
}

export function containerOrigins(stateDir: string): ContainerOrigins {
  const { file, damage } = readContainerNames(stateDir);
  return { names: file.names, ...(damage ? { damage } : {}) };
}

/** "from container web (3f2a…)", with the grace and what was there before when they apply. */
export function originText(name: ContainerName): string {
  const held = name.heldUntil ? `; stopped, kept until ${name.heldUntil}` : '';
  const before = name.heldBefore ? '; its records were there before: never deleted' : '';
  return `from ${name.containers.join(', ') || 'a container'}${held}${before}`;
}

/** The record types a container's name has: a CNAME, or the agent's A (and AAAA with --ipv6). */
export function typesOfName(name: ContainerName, ipv6: boolean): (RecordType | 'CNAME')[] {
  if (name.target) return ['CNAME'];
  return ipv6 ? ['A', 'AAAA'] : ['A'];
}
