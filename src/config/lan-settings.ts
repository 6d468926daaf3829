// The LAN settings read by the loader: hosts behind the router (NAME=<identifier>),
// the delegated prefix length, hosts without an A record, and the daemon's --listen address.
import { familyOfAddress } from '../lib/address.js';
import { normaliseHost } from '../lib/names.js';
import { parseListenAddress, type ListenAddress } from '../lib/listen-address.js';
import {
  canonicalIdentifier,
  DEFAULT_PREFIX_LENGTH,
  identifierProblem,
  isAllowedPrefixLength,
  PREFIX_LENGTHS,
} from '../lib/interface-id.js';
import type { Config } from './config.js';
import type { RawValue } from './env-sources.js';
import { listValues } from './readers.js';
import type { Fail, SettingName } from './settings.js';

/** `nas.example.com=::1e2:3ff:fe4a:5b6c` -> the host and its interface identifier. */
export function parseHostItem(item: string): { host: string; identifier?: string } {
  const at = item.indexOf('=');
  if (at < 0) return { host: normaliseHost(item) };
  return { host: normaliseHost(item.slice(0, at).trim()), identifier: item.slice(at + 1).trim() };
}

export function lanSettings(raw: (name: SettingName) => RawValue[], fail: Fail) {
  const lengthEntry = raw('ip6PrefixLength').at(-1);
  let prefixLength = DEFAULT_PREFIX_LENGTH;
  if (lengthEntry) {
    const value = lengthEntry.value.trim().replace(/^\//, '');
    if (/^\d{1,3}$/.test(value) && isAllowedPrefixLength(Number(value))) prefixLength = Number(value);
    else
      fail(
        'ip6PrefixLength',
        lengthEntry.origin,
        `"${lengthEntry.value}" is not an allowed prefix length: ${PREFIX_LENGTHS}`,
      );
  }
  const noIpv4For = listValues(raw('noIpv4For')).map(normaliseHost);
  const identifiers: Record<string, string> = {};
  const canonical = (identifier: string): string =>
    familyOfAddress(identifier) === 6 ? canonicalIdentifier(identifier) : identifier;
  return {
    prefixLength,
    noIpv4For: [...new Set(noIpv4For)],
    identifiers,
    canonical,
    define(host: string, identifier: string, origin: string) {
      const problem = identifierProblem(identifier, prefixLength);
      if (problem) fail('hosts', origin, `${host}: ${problem}`);
      else identifiers[host] = canonical(identifier);
    },
  };
}

/**
 * An ADDR:PORT setting (--listen, the gateway's --dns-listen, --dyndns2-listen); what is wrong goes to `problems`,
 * named as given.
 */
export function listenAddress(entry: RawValue | undefined, problems: string[]): ListenAddress | undefined {
  if (!entry) return undefined;
  const parsed = parseListenAddress(entry.value);
  if (typeof parsed === 'string') {
    problems.push(`${entry.origin}: ${parsed}`);
    return undefined;
  }
  return parsed;
}

/** update and daemon: every host must end up with at least one record. */
export function checkLanRequirements(config: Config, problems: string[]): void {
  for (const host of config.lan.noIpv4For)
    if (!config.hosts.includes(host)) problems.push(`--no-ipv4-for: "${host}" is not one of the hosts (--host)`);
  if (config.ipv6) return;
  const withIdentifier = Object.keys(config.lan.identifiers);
  if (withIdentifier.length)
    problems.push(
      `${withIdentifier.join(', ')}: an interface identifier gives a host its AAAA record, which needs --ipv6 ` +
        `(DDEDGE_IPV6=yes)`,
    );
  if (config.lan.noIpv4For.length)
    problems.push(
      `--no-ipv4-for ${config.lan.noIpv4For.join(',')}: without --ipv6 these hosts would have no record at all`,
    );
}
