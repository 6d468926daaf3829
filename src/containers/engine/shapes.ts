// What the engine's JSON means, read defensively: a listing's entries and an event's line become
// ContainerSeen and EngineEvent, or a reason they were set aside. Docker and podman differ in
// details this reads through: names with a leading slash, labels null when there are none, an
// event's action as `Action` (API 1.22+) or `status` (older, and podman's compat as well), the
// container's id in `Actor.ID` or `id`, labels mixed into `Actor.Attributes` with the engine's
// own keys, and podman's `remove` and `died` beside Docker's `destroy` and `die`.
import type { ContainerSeen } from './news.js';

/** How much of a container's outside text is kept. */
export interface LabelLimits {
  readonly maxLabels: number;
  /** Key and value together, in characters. */
  readonly maxLabelChars: number;
}

export type EngineEvent =
  | { readonly kind: 'started'; readonly id: string; readonly container?: ContainerSeen }
  | { readonly kind: 'stopped'; readonly id: string };

/** An entry read, with what was left out of it said for a warning. */
export interface Read<T> {
  readonly value?: T;
  readonly problem?: string;
}

const ID = /^[0-9a-f]{12,128}$/i;
/** Docker's and podman's rule for a container's name, so it is safe to show anywhere. */
const NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,254}$/;
const STOPPED_ACTIONS = new Set(['die', 'died', 'stop', 'destroy', 'remove']);
/** Attributes the engine adds to a container's labels in an event (Docker and podman). */
const ENGINE_ATTRIBUTES = new Set([
  'name',
  'image',
  'exitCode',
  'containerExitCode',
  'podId',
  'oomKilled',
  'network',
  'error',
  'signal',
  'execID',
]);

/**
 * The actions the events stream is asked for: each engine's words for start and for a stop. Older
 * podman (4.3) matches the `event` filter against its own words (`died`, `remove`) though it
 * writes Docker's (`die`): asked for by both, an engine ignores the words it does not use.
 */
export const WATCHED_ACTIONS: readonly string[] = ['start', ...STOPPED_ACTIONS];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One entry of `GET /containers/json`. */
export function readListedContainer(entry: unknown, limits: LabelLimits): Read<ContainerSeen> {
  if (!isRecord(entry)) return { problem: 'an entry of the listing is not an object' };
  const id = entry.Id;
  if (typeof id !== 'string' || !ID.test(id)) return { problem: 'an entry of the listing has no valid Id' };
  const names = Array.isArray(entry.Names) ? entry.Names.filter((n): n is string => typeof n === 'string') : [];
  // Docker lists a linked container's aliases as /other/alias; its own name has one slash.
  const name = withoutSlash(names.find((n) => n.lastIndexOf('/') <= 0) ?? names[0] ?? '');
  if (!NAME.test(name)) return { problem: `the container ${id.slice(0, 12)} has no valid name` };
  if (entry.Labels !== null && entry.Labels !== undefined && !isRecord(entry.Labels)) {
    return { problem: `the labels of the container ${name} are not an object` };
  }
  const { labels, problem } = boundedLabels(entry.Labels ?? {}, limits, name, () => true);
  return { value: { id, name, labels }, problem };
}

/**
 * One line of `GET /events` (already parsed). Events of other kinds are not asked for, but a
 * proxy may pass them: they are ignored (no value, no problem). A start's container is given
 * when the event names it (its attributes hold the labels); otherwise the caller looks it up.
 */
export function readEvent(line: unknown, limits: LabelLimits): Read<EngineEvent> {
  if (!isRecord(line)) return { problem: 'an event is not an object' };
  const actor = isRecord(line.Actor) ? line.Actor : undefined;
  const type = line.Type ?? (typeof line.status === 'string' ? 'container' : undefined);
  const action = line.Action ?? line.status;
  if (type !== 'container' || typeof action !== 'string') return {};
  const id = actor?.ID ?? line.id;
  if (typeof id !== 'string' || !ID.test(id)) return { problem: `a ${action} event has no valid container id` };
  if (STOPPED_ACTIONS.has(action)) return { value: { kind: 'stopped', id } };
  if (action !== 'start') return {};
  const attributes = actor?.Attributes;
  const name = isRecord(attributes) ? attributes.name : undefined;
  const shown = typeof name === 'string' ? withoutSlash(name) : '';
  // Without a name fit to show, the listing is asked (and says what is wrong with it).
  if (!isRecord(attributes) || !NAME.test(shown)) return { value: { kind: 'started', id } };
  const { labels, problem } = boundedLabels(attributes, limits, shown, (key) => !ENGINE_ATTRIBUTES.has(key));
  return { value: { kind: 'started', id, container: { id, name: shown, labels } }, problem };
}

const withoutSlash = (name: string): string => (name.startsWith('/') ? name.slice(1) : name);

/** The string labels within the limits; what was left out is said once, naming the container. */
function boundedLabels(
  source: Record<string, unknown>,
  limits: LabelLimits,
  container: string,
  isLabel: (key: string) => boolean,
): { labels: Record<string, string>; problem?: string } {
  const labels: Record<string, string> = Object.create(null) as Record<string, string>;
  let count = 0;
  let dropped = 0;
  for (const [key, value] of Object.entries(source)) {
    if (!isLabel(key)) continue;
    if (typeof value !== 'string' || key.length + value.length > limits.maxLabelChars || count >= limits.maxLabels) {
      dropped++;
      continue;
    }
    labels[key] = value;
    count++;
  }
  if (!dropped) return { labels };
  return {
    labels,
    problem:
      `${dropped} label(s) of the container ${container} were left out (not text, longer than ` +
      `${limits.maxLabelChars} characters, or past ${limits.maxLabels} labels)`,
  };
}
