// iface:<name> for IPv6 picks the address a router would publish. An interface holds several:
// link-local, temporary (privacy) addresses that change every day, deprecated ones whose
// prefix is being withdrawn, ULAs. Only a global, preferred, stable public address should
// reach the DNS. Node's os.networkInterfaces() does not say which addresses are temporary or
// deprecated; on Linux /proc/net/if_inet6 does (the kernel's IFA_F_* flags).
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import type { Logger } from '../lib/log.js';
import { canonicalAddress, nonPublicReason } from '../lib/address.js';

export const IF_INET6 = '/proc/net/if_inet6';

// From linux/if_addr.h.
const IFA_F_TEMPORARY = 0x01;
const IFA_F_DADFAILED = 0x08;
const IFA_F_DEPRECATED = 0x20;
const IFA_F_TENTATIVE = 0x40;
const IFA_F_PERMANENT = 0x80;
// From include/net/ipv6.h: the scope column (0 = global).
const SCOPE_NAMES: Record<number, string> = { 16: 'loopback', 32: 'link-local', 64: 'site-local' };

export interface Inet6Entry {
  iface: string;
  address: string;
  prefixLength: number;
  scope: number;
  flags: number;
}

export interface InterfaceChoice {
  address: string;
  /** Why this address: what it is and what was passed over. */
  reason: string;
}

export class InterfaceError extends Error {}

/** One line: 32 hex digits of address, index, prefix length, scope, flags (all hex), name. */
export function parseIfInet6(text: string): Inet6Entry[] {
  const entries: Inet6Entry[] = [];
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{32})\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+(\S+)\s*$/i.exec(line.trim());
    if (!m) continue;
    const address = canonicalAddress(m[1]!.match(/.{4}/g)!.join(':'));
    entries.push({
      iface: m[6]!,
      address,
      prefixLength: parseInt(m[3]!, 16),
      scope: parseInt(m[4]!, 16),
      flags: parseInt(m[5]!, 16),
    });
  }
  return entries;
}

/** Why an address is not publishable at all, from its scope and flags. */
function unusable(entry: Inet6Entry): string | undefined {
  if (entry.scope !== 0) return SCOPE_NAMES[entry.scope & 0xf0] ?? `scope ${entry.scope.toString(16)}`;
  if (entry.flags & IFA_F_DADFAILED) return 'duplicate address detected';
  if (entry.flags & IFA_F_TENTATIVE) return 'tentative (duplicate address detection not finished)';
  if (entry.flags & IFA_F_DEPRECATED) return 'deprecated (its preferred lifetime is over)';
  return undefined;
}

/** Ranks the usable addresses: public before not public, stable before temporary (privacy). */
export function chooseInterfaceAddress6(name: string, entries: Inet6Entry[]): InterfaceChoice {
  const passed: string[] = [];
  const usable: Inet6Entry[] = [];
  for (const entry of entries) {
    const why = unusable(entry);
    if (why) passed.push(`${entry.address} (${why})`);
    else usable.push(entry);
  }
  const rank = (e: Inet6Entry) => (nonPublicReason(e.address) ? 2 : 0) + (e.flags & IFA_F_TEMPORARY ? 1 : 0);
  const ordered = [...usable].sort((a, b) => rank(a) - rank(b));
  const chosen = ordered[0];
  if (!chosen)
    throw new InterfaceError(
      `interface "${name}" has no usable IPv6 address${passed.length ? `: ${passed.join(', ')}` : ''}`,
    );
  for (const other of ordered.slice(1)) {
    const why = nonPublicReason(other.address)
      ? 'not public'
      : other.flags & IFA_F_TEMPORARY
        ? 'temporary'
        : 'another stable address, listed later';
    passed.push(`${other.address} (${why})`);
  }
  const kind =
    chosen.flags & IFA_F_TEMPORARY
      ? 'temporary: no stable address is usable'
      : chosen.flags & IFA_F_PERMANENT
        ? 'stable, configured'
        : 'stable';
  const scope = nonPublicReason(chosen.address) ? 'global scope but not public' : 'global';
  return {
    address: chosen.address,
    reason: `${scope}, preferred, ${kind}${passed.length ? `; passed over ${passed.join(', ')}` : ''}`,
  };
}

/** Without the kernel's flags (not Linux, or /proc hidden): scope and public-ness only. */
function chooseWithoutFlags(name: string): InterfaceChoice {
  const all = networkInterfaces();
  const entries = all[name];
  if (!entries) throw new InterfaceError(`no network interface named "${name}" (have: ${Object.keys(all).join(', ')})`);
  const global = entries
    .filter((e) => e.family === 'IPv6' && !e.scopeid && !/^fe[89ab]/i.test(e.address))
    .map((e) => canonicalAddress(e.address));
  const chosen = global.find((a) => !nonPublicReason(a)) ?? global[0];
  if (!chosen) throw new InterfaceError(`interface "${name}" has no global IPv6 address`);
  return {
    address: chosen,
    reason:
      `the first ${nonPublicReason(chosen) ? 'global' : 'public'} address; this system does not say which ` +
      `addresses are temporary or deprecated (no ${IF_INET6})`,
  };
}

const logged = new Map<string, string>();

/** The address of interface `name` a router would publish; `table` is injectable for tests. */
export function interfaceAddress6(name: string, options: { table?: string; logger?: Logger } = {}): string {
  const table = options.table ?? IF_INET6;
  let text: string | undefined;
  try {
    text = readFileSync(table, 'utf8');
  } catch {
    text = undefined;
  }
  let choice: InterfaceChoice;
  if (text === undefined) choice = chooseWithoutFlags(name);
  else {
    const entries = parseIfInet6(text);
    const mine = entries.filter((e) => e.iface === name);
    if (!mine.length)
      throw new InterfaceError(
        `no network interface named "${name}" with an IPv6 address (have: ` +
          `${[...new Set(entries.map((e) => e.iface))].join(', ')})`,
      );
    choice = chooseInterfaceAddress6(name, mine);
  }
  // The reason at info when the choice changes (the daemon's log stays quiet otherwise).
  const message = `iface:${name} IPv6 address ${choice.address}: ${choice.reason}`;
  if (logged.get(name) !== choice.address) options.logger?.info(message);
  else options.logger?.debug(message);
  logged.set(name, choice.address);
  return choice.address;
}
