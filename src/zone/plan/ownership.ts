// Who owns which records of a zone, decided in one place for every command that changes one:
// the agent's hosts (A and AAAA), ACME challenges (_acme-challenge TXT), what the user told
// ddedge to ignore, and what the provider keeps (SOA, apex NS, types ddedge does not manage).
// A plan passes through this policy, as octoDNS's processors pass a plan: `zone apply` leaves
// every kept record alone on both sides (neither the live record nor the file's is acted on);
// the gateway refuses a key's update that would change one (gateway/keys/kept-records.ts), and
// plans its writes with only the provider's records left out (providerKeeps).
import { ConfigError } from '../../lib/errors.js';
import { agentHostName, type AgentRecords } from './agent-records.js';
import { globMatcher, type NameMatcher } from '../glob.js';
import { absoluteName, atOrBelow, canonicalName } from '../../lib/names.js';
import { visible } from '../file/master-writer.js';
import { isZoneType } from '../record.js';

export interface OwnershipOptions {
  zone: string;
  /** The agent's hosts (--host / DDEDGE_HOSTS), `name` or `name=<interface id>`: their A and AAAA. */
  hosts: string[];
  /** --ignore NAME[:TYPE], NAME relative to the zone or absolute, `*` matching anything. */
  ignore?: string[];
  /** The records the agent's state file holds (kept whatever --host says), by name and type. */
  agent?: AgentRecords;
  /**
   * The ACME challenges kept. Unset: every _acme-challenge TXT (a zone file rewrites the whole
   * zone, and would delete any client's challenge). Set: only these, the ones `ddedge acme`
   * made (a gateway key may write its own challenges: that is what ACME clients use it for).
   */
  acmeMade?: { name: string; value: string }[];
}

export type Owner = (record: { name: string; type: string }) => string | undefined;

/** Who keeps a record, and why (the reason as `zone plan` reports it). */
export interface Kept {
  by: 'provider' | 'agent' | 'acme' | 'ignore';
  reason: string;
}

export type Keeper = (record: { name: string; type: string; value?: string }) => Kept | undefined;

const SOA: Kept = { by: 'provider', reason: 'left to the provider (SOA)' };
const APEX_NS: Kept = { by: 'provider', reason: 'left to the provider (apex NS)' };
const HOST: Kept = { by: 'agent', reason: "one of the agent's hosts, DDEDGE_HOSTS or --host" };
const CHALLENGE: Kept = { by: 'acme', reason: 'an ACME challenge (_acme-challenge TXT)' };

/** The provider's own records of a zone, whatever the caller: its SOA and the apex NS. */
export const isProviderRecord = (name: string, type: string, zone: string): boolean =>
  type === 'SOA' || (type === 'NS' && name === zone);

/** The records the provider keeps: its SOA, the apex NS, and the types ddedge does not manage. */
export function providerKeeps({ name, type }: { name: string; type: string }, zone: string): Kept | undefined {
  if (isProviderRecord(name, type, zone)) return type === 'SOA' ? SOA : APEX_NS;
  // The provider's own text: a line break in it must not forge a line of the plan.
  if (!isZoneType(type)) return { by: 'provider', reason: `type ${visible(type)} is not managed by ddedge` };
  return undefined;
}

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
  const full =
    namePart === '@'
      ? zone
      : namePart.endsWith('.')
        ? namePart.slice(0, -1)
        : atOrBelow(namePart, zone)
          ? namePart
          : absoluteName(namePart, zone);
  // Wildcards are checked as a name with '*' in place of each run; the rest must be a name.
  if (!canonicalName(full.replace(/\*+/g, 'x')))
    throw new ConfigError(`--ignore: "${namePart}" is not a name or a pattern of one`);
  // The provider keeps names in lower-case punycode: a Unicode label is matched in that form.
  // A label with '*' cannot be (punycode is not made of pieces), so it must be ASCII already.
  const labels = full
    .replace(/\.$/, '')
    .split('.')
    .map((label) => {
      if (!label.includes('*')) return canonicalName(label)!;
      if (/^[\x00-\x7f]*$/.test(label)) return label.toLowerCase();
      throw new ConfigError(
        `--ignore: "${namePart}": a pattern with * is matched against the names the provider keeps: write its ` +
          `Unicode labels in punycode (xn--...)`,
      );
    });
  const ascii = labels.join('.');
  // A bare "*" (or "*.<zone>.") is every name of the zone: the apex too, or `--ignore '*:TXT'`
  // would still delete the apex SPF record.
  const glob = globMatcher(ascii);
  const matches = ascii === `*.${zone}` ? (name: string) => name === zone || glob(name) : glob;
  return { matches, type: typePart?.toUpperCase(), text };
}

/** The whole policy: who keeps each record, the provider first. */
export const keeper = (options: OwnershipOptions): Keeper => judge(options, (kept) => kept);

/** The policy as the plan asks it (plan.ts): why a record is kept, or undefined when the caller may change it. */
export const ownership = (options: OwnershipOptions): Owner => judge(options, (kept) => kept.reason);

/**
 * The policy's one closure, giving what the caller wants of a kept record (`as` is called for
 * kept records only: a plan asks every record of a big zone, and a second call per record made
 * a plan of 100,000 records 2% slower).
 */
function judge<T>(
  options: OwnershipOptions,
  as: (kept: Kept) => T,
): (record: { name: string; type: string; value?: string }) => T | undefined {
  const { zone } = options;
  const hosts = new Set(options.hosts.map((h) => agentHostName(h.split('=')[0]!)));
  const recordedKept: Kept = { by: 'agent', reason: `one of the agent's hosts, recorded in ${options.agent?.file}` };
  const containerKept: Kept = {
    by: 'agent',
    reason: `a name a container gave the agent, recorded in ${options.agent?.containersFile}`,
  };
  const recorded = new Map(
    options.agent?.records.map((r) => [`${r.name}\t${r.type}`, r.fromContainer ? containerKept : recordedKept]),
  );
  const rules = (options.ignore ?? []).map((text) => parseIgnore(text, zone));
  const made = options.acmeMade;
  return (record) => {
    const { name, type } = record;
    // Only NS and the types ddedge does not manage (the SOA among them) may be the provider's.
    const provider = type !== 'NS' && isZoneType(type) ? undefined : providerKeeps(record, zone);
    if (provider) return as(provider);
    if ((type === 'A' || type === 'AAAA') && hosts.has(name)) return as(HOST);
    const byAgent = recorded.size ? recorded.get(`${name}\t${type}`) : undefined;
    if (byAgent) return as(byAgent);
    if (
      type === 'TXT' &&
      (made
        ? made.some((c) => c.name === name && c.value === record.value)
        : name === '_acme-challenge' || name.startsWith('_acme-challenge.'))
    )
      return as(CHALLENGE);
    const rule = rules.length === 0 ? undefined : rules.find((r) => (!r.type || r.type === type) && r.matches(name));
    if (rule) return as({ by: 'ignore', reason: `--ignore ${rule.text}` });
    return undefined;
  };
}

/** The provider's records only, for a plan whose other owners are judged change by change (the gateway's). */
export const providerOwnership =
  (zone: string): Owner =>
  (record) =>
    providerKeeps(record, zone)?.reason;

/**
 * The first record `changes` would touch (before or after) that `keeps` keeps and `allowed` does not let the caller
 * change, with who keeps it.
 */
export function firstKept<
  C extends { before?: R; after?: R },
  R extends { name: string; type: string; value?: string },
>(
  changes: readonly C[],
  keeps: Keeper,
  allowed: (record: R, kept: Kept) => boolean = () => false,
): { record: R; kept: Kept } | undefined {
  for (const change of changes) {
    for (const record of [change.before, change.after]) {
      if (!record) continue;
      const kept = keeps(record);
      if (kept && !allowed(record, kept)) return { record, kept };
    }
  }
  return undefined;
}
