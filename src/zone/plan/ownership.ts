// Who owns which records of a zone, decided in one place: the agent's hosts (A and AAAA),
// ACME clients (_acme-challenge TXT), what the user told ddedge to ignore, and what the
// provider keeps (SOA, apex NS, types ddedge does not manage). The plan leaves all of these
// alone, on both sides: neither the live record nor the file's record is acted on.
import { ConfigError } from '../../lib/errors.js';
import type { AgentRecords } from './agent-records.js';
import { globMatcher, type NameMatcher } from '../glob.js';
import { absoluteName, atOrBelow, canonicalName } from '../../lib/names.js';
import { visible } from '../file/master-writer.js';
import { isZoneType } from '../record.js';

export interface OwnershipOptions {
  zone: string;
  /** The agent's hosts (--host / DDEDGE_HOSTS), `name` or `name=<interface id>`. */
  hosts: string[];
  /** --ignore NAME[:TYPE], NAME relative to the zone or absolute, `*` matching anything. */
  ignore: string[];
  /** The records the agent's state file holds (kept whatever --host says). */
  agent?: AgentRecords;
}

export type Owner = (record: { name: string; type: string }) => string | undefined;

interface IgnoreRule {
  matches: NameMatcher;
  type?: string;
  text: string;
}

export function parseIgnore(text: string, zone: string): IgnoreRule {
  const [namePart = '', typePart, ...rest] = text.split(':');
  if (!namePart || rest.length || (typePart !== undefined && !/^[A-Za-z0-9]+$/.test(typePart))) {
    throw new ConfigError(`--ignore: "${text}" is not NAME or NAME:TYPE (e.g. --ignore 'legacy*' or --ignore @:TXT)`);
  }
  const full = namePart === '@' ? zone : namePart.endsWith('.') ? namePart.slice(0, -1) : atOrBelow(namePart, zone) ? namePart : absoluteName(namePart, zone);
  // Wildcards are checked as a name with '*' in place of each run; the rest must be a name.
  if (!canonicalName(full.replace(/\*+/g, 'x'))) throw new ConfigError(`--ignore: "${namePart}" is not a name or a pattern of one`);
  // The provider keeps names in lower-case punycode: a Unicode label is matched in that form.
  // A label with '*' cannot be (punycode is not made of pieces), so it must be ASCII already.
  const labels = full.replace(/\.$/, '').split('.').map((label) => {
    if (!label.includes('*')) return canonicalName(label)!;
    if (/^[\x00-\x7f]*$/.test(label)) return label.toLowerCase();
    throw new ConfigError(`--ignore: "${namePart}": a pattern with * is matched against the names the provider keeps: write its Unicode labels in punycode (xn--...)`);
  });
  const ascii = labels.join('.');
  // A bare "*" (or "*.<zone>.") is every name of the zone: the apex too, or `--ignore '*:TXT'`
  // would still delete the apex SPF record.
  const glob = globMatcher(ascii);
  const matches = ascii === `*.${zone}` ? (name: string) => name === zone || glob(name) : glob;
  return { matches, type: typePart?.toUpperCase(), text };
}

export function ownership(options: OwnershipOptions): Owner {
  const { zone } = options;
  const hosts = new Set(options.hosts.map((h) => canonicalName(h.split('=')[0]!) ?? h.toLowerCase()));
  const recorded = new Set(options.agent?.records.map((r) => `${r.name}\t${r.type}`));
  const recordedReason = `the agent's host (recorded in ${options.agent?.file})`;
  const rules = options.ignore.map((text) => parseIgnore(text, zone));
  return ({ name, type }) => {
    if (type === 'SOA') return 'left to the provider (SOA)';
    if (type === 'NS' && name === zone) return 'left to the provider (apex NS)';
    // The provider's own text: a line break in it must not forge a line of the plan.
    if (!isZoneType(type)) return `type ${visible(type)} is not managed by ddedge`;
    if ((type === 'A' || type === 'AAAA') && hosts.has(name)) return "the agent's host (--host)";
    if (recorded.size && recorded.has(`${name}\t${type}`)) return recordedReason;
    if (type === 'TXT' && (name === '_acme-challenge' || name.startsWith('_acme-challenge.'))) return 'an ACME challenge (_acme-challenge TXT)';
    const rule = rules.length === 0 ? undefined : rules.find((r) => (!r.type || r.type === type) && r.matches(name));
    if (rule) return `--ignore ${rule.text}`;
    return undefined;
  };
}
