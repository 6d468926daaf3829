// A container's labels -> the names it asks for. `ddedge.hosts=NAME[,NAME…]` names hosts,
// `ddedge.target=HOST` makes them CNAMEs to HOST, and with Traefik's rules read the names of
// every router's Host(…). Labels are untrusted input: each name is judged on its own, and one
// outside the served zones (or a target outside them), an apex, a wildcard, a name the agent
// keeps through DDEDGE_HOSTS or text that is no name is refused with a warning naming the
// container; a container naming more than MAX_NAMES_PER_CONTAINER is refused whole, and at most
// MAX_WARNINGS_PER_CONTAINER of its problems are told. Nothing here throws on a label.
import { atOrBelow, below, canonicalName, isHostName } from '../lib/names.js';
import { outsideText } from '../lib/outside-text.js';
import type { ContainerSeen } from './engine/news.js';
import { hostsOfRule, RuleError } from './traefik-rule.js';

const HOSTS_LABEL = 'ddedge.hosts';
const TARGET_LABEL = 'ddedge.target';
/** More names than a container of a home server has; beyond it a label is a mistake or an attack. */
export const MAX_NAMES_PER_CONTAINER = 20;
/** Far above a list of 20 long names: a longer label is refused unread. */
const MAX_LABEL_CHARS = 8192;
/** Warnings told for one container; past them, how many more there were. */
const MAX_WARNINGS_PER_CONTAINER = 5;
const TRAEFIK_RULE = /^traefik\.http\.routers\.([^.]+)\.rule$/;

export interface NamingRules {
  /** The zones the agent serves (--service, else the zones of its hosts): names must be below one. */
  zones: readonly string[];
  /** DDEDGE_HOSTS: never taken over by a container. */
  keptHosts: readonly string[];
  /** --containers-traefik: also read Traefik's router rules. */
  traefik: boolean;
}

export interface ContainerNaming {
  /** The names accepted, canonical, each once, in the order the labels give them. */
  names: string[];
  /** ddedge.target: the names are CNAMEs to it. */
  target?: string;
  /** Each refusal and each thing ignored, naming the container. */
  warnings: string[];
}

/** How a container is named in a warning: its name and short id, made safe to print. */
export function containerLabel(container: Pick<ContainerSeen, 'id' | 'name'>): string {
  return `container ${outsideText(container.name, 128)} (${outsideText(container.id.slice(0, 12), 12)})`;
}

export function namesOf(container: ContainerSeen, rules: NamingRules): ContainerNaming {
  const naming = judgedNames(container, rules);
  const { warnings } = naming;
  if (warnings.length <= MAX_WARNINGS_PER_CONTAINER) return naming;
  const more = warnings.length - MAX_WARNINGS_PER_CONTAINER;
  const told = warnings.slice(0, MAX_WARNINGS_PER_CONTAINER);
  return {
    ...naming,
    warnings: [...told, `${containerLabel(container)}: ${more} more problem(s) with its labels, not told`],
  };
}

function judgedNames(container: ContainerSeen, rules: NamingRules): ContainerNaming {
  const who = containerLabel(container);
  const warnings: string[] = [];
  const asked = [
    ...labelNames(container, warnings, who),
    ...(rules.traefik ? traefikNames(container, warnings, who) : []),
  ];
  const distinct = [...new Set(asked)];
  if (distinct.length > MAX_NAMES_PER_CONTAINER) {
    warnings.push(
      `${who}: names ${distinct.length} hosts, more than ${MAX_NAMES_PER_CONTAINER}; none of them is taken`,
    );
    return { names: [], warnings };
  }
  const names: string[] = [];
  for (const text of distinct) {
    const name = judged(text, rules, (why) => warnings.push(`${who}: ${why}`));
    if (name && !names.includes(name)) names.push(name);
  }
  const target = targetOf(container, names, rules, warnings, who);
  if (target === null) return { names: [], warnings };
  return { names, ...(target ? { target } : {}), warnings };
}

/** The names of ddedge.hosts, as written (judged later). */
function labelNames(container: ContainerSeen, warnings: string[], who: string): string[] {
  const value = container.labels[HOSTS_LABEL];
  if (value === undefined) return [];
  if (value.length > MAX_LABEL_CHARS) {
    warnings.push(`${who}: ${HOSTS_LABEL} is longer than ${MAX_LABEL_CHARS} characters; refused`);
    return [];
  }
  return value
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
}

/** The names of every router's Host(…), unless Traefik is told to leave the container alone. */
function traefikNames(container: ContainerSeen, warnings: string[], who: string): string[] {
  if (container.labels['traefik.enable']?.trim().toLowerCase() === 'false') return [];
  const names: string[] = [];
  const ignored = new Set<string>();
  for (const [key, rule] of Object.entries(container.labels).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const router = TRAEFIK_RULE.exec(key)?.[1];
    if (router === undefined) continue;
    try {
      const found = hostsOfRule(rule);
      names.push(...found.hosts);
      for (const what of found.ignored) ignored.add(what);
    } catch (error) {
      if (!(error instanceof RuleError)) throw error;
      warnings.push(`${who}: the rule of Traefik router ${outsideText(router, 64)} is not read (${error.message})`);
    }
  }
  const left = outsideText([...ignored].join(', '), 200);
  if (ignored.size) warnings.push(`${who}: in its Traefik rules only Host(…) names are taken; ignored: ${left}`);
  return names;
}

/** The canonical name, or undefined with the reason told. */
function judged(text: string, rules: NamingRules, refuse: (why: string) => void): string | undefined {
  const shown = outsideText(text, 100);
  const name = canonicalName(text);
  if (name?.startsWith('*')) return void refuse(`${shown} is a wildcard; refused`);
  if (!name || !isHostName(name)) return void refuse(`${shown} is not a host name; refused`);
  const apexOf = rules.zones.find((zone) => zone === name);
  if (apexOf) return void refuse(`${name} is the apex of the zone ${apexOf}; refused`);
  if (!rules.zones.some((zone) => below(name, zone)))
    return void refuse(`${name} is outside the served zones (${rules.zones.join(', ') || 'none'}); refused`);
  if (rules.keptHosts.includes(name)) return void refuse(`${name} is kept through DDEDGE_HOSTS; refused`);
  return name;
}

/** ddedge.target: undefined when absent, null when present but refused (the container gets no name). */
function targetOf(
  container: ContainerSeen,
  names: string[],
  rules: NamingRules,
  warnings: string[],
  who: string,
): string | undefined | null {
  const text = container.labels[TARGET_LABEL]?.trim();
  if (text === undefined || text === '') return undefined;
  const target = text.length <= 253 ? canonicalName(text) : undefined;
  if (!target || !isHostName(target)) {
    warnings.push(`${who}: ${TARGET_LABEL} ${outsideText(text, 100)} is not a host name; none of its names is taken`);
    return null;
  }
  // A name of the zone pointed elsewhere would send its visitors (and a certificate's challenge) to a stranger.
  if (!rules.zones.some((zone) => atOrBelow(target, zone))) {
    const zones = rules.zones.join(', ') || 'none';
    warnings.push(
      `${who}: ${TARGET_LABEL} ${target} is outside the served zones (${zones}); none of its names is taken`,
    );
    return null;
  }
  if (names.includes(target)) {
    warnings.push(`${who}: ${TARGET_LABEL} ${target} is one of its own names; none of its names is taken`);
    return null;
  }
  return target;
}
