// Knowing that the sandbox's model changed, and where, without looking at it: every write to
// the list of services, to a service's `dns` list or to one of its entries bumps a counter and
// tells the watchers what it touched, whatever code makes it (an API operation, the dynamic DNS
// interface, a test holding the model). The name server then re-reads only what a change
// touched (an entry edited, an entry appended, a list changed), never the zone on every
// question: a fingerprint of 50,000 entries per query held it to about 120 queries a second.
// A watched model is read and serialised (JSON) as before; structuredClone refuses its proxies:
// copy a watched service through JSON instead.
import type { DnsEntry } from '../../api/endpoints/service.js';
import type { SandboxModel, SandboxService } from '../model.js';

/** What one write touched. */
export type ModelChange =
  /** The list of services was replaced or changed. */
  | { kind: 'services' }
  /** A service's `dns` list was replaced (`service` given) or its items changed other than by an append. */
  | { kind: 'list'; list: DnsEntry[]; service?: SandboxService }
  /** An entry was added at the end of a `dns` list (a push). */
  | { kind: 'append'; list: DnsEntry[]; entry: DnsEntry }
  /** A field of an entry was written or deleted. */
  | { kind: 'entry'; entry: DnsEntry };

interface Watch {
  value: number;
  listeners: Set<(change: ModelChange) => void>;
}

const watches = new WeakMap<SandboxModel, Watch>();
const wrapped = new WeakSet<object>();
/**
 * Each watched list's own array: reading it costs no proxy trap (a walk of 50,000 entries through the proxy took
 * hundreds of ms).
 */
const targets = new WeakMap<object, unknown[]>();

/** The array behind a watched list (for reading only: a write to it would not be seen), or the list itself. */
export function arrayOf<T>(list: T[]): readonly T[] {
  return (targets.get(list) as T[] | undefined) ?? list;
}

function watchOf(model: SandboxModel): Watch {
  let watch = watches.get(model);
  if (watch) return watch;
  const started: Watch = { value: 0, listeners: new Set() };
  watch = started;
  watches.set(model, started);
  const bump = (change?: ModelChange) => {
    started.value = (started.value + 1) >>> 0;
    if (change) for (const listener of started.listeners) listener(change);
  };
  const entry = (e: DnsEntry): DnsEntry => observedObject(e, (proxy) => bump({ kind: 'entry', entry: proxy }));
  const service = (s: SandboxService): SandboxService => {
    if (wrapped.has(s) || typeof s !== 'object' || s === null) return s;
    wrapped.add(s);
    observeProperty(
      s,
      'dns',
      (list: DnsEntry[]) =>
        observedArray(list, entry, (proxy, what, item) =>
          bump(
            what === 'none'
              ? undefined
              : what === 'append'
                ? { kind: 'append', list: proxy, entry: item! }
                : { kind: 'list', list: proxy },
          ),
        ),
      (list) => bump({ kind: 'list', list, service: s }),
    );
    return s;
  };
  observeProperty(
    model,
    'services',
    (list: SandboxService[]) => observedArray(list, service, () => bump({ kind: 'services' })),
    () => bump({ kind: 'services' }),
  );
  return started;
}

/** The model's change counter; the first call starts watching it. */
export function generationOf(model: SandboxModel): number {
  return watchOf(model).value;
}

/** Tells `listener` of every write to the model from now on; returns what stops it. */
export function watchModel(model: SandboxModel, listener: (change: ModelChange) => void): () => void {
  const watch = watchOf(model);
  watch.listeners.add(listener);
  return () => void watch.listeners.delete(listener);
}

/** Replaces `object[key]` by an accessor that wraps what is stored and reports each store (with what is now stored). */
function observeProperty<T extends object, K extends keyof T>(
  object: T,
  key: K,
  wrap: (value: T[K]) => T[K],
  changed: (value: T[K]) => void,
): void {
  let value = wrap(object[key]);
  Object.defineProperty(object, key, {
    enumerable: true,
    configurable: true,
    get: () => value,
    set: (next: T[K]) => {
      value = wrap(next);
      changed(value);
    },
  });
}

/**
 * An array (as a Proxy) whose stores and deletes are reported, an item stored at its end (a
 * push) as that item; items are wrapped as they come in.
 */
function observedArray<T>(
  list: T[],
  wrapItem: (item: T) => T,
  changed: (proxy: T[], what: 'append' | 'list' | 'none', item?: T) => void,
): T[] {
  if (!Array.isArray(list) || wrapped.has(list)) return list;
  for (let i = 0; i < list.length; i++) list[i] = wrapItem(list[i]!);
  const proxy: T[] = new Proxy(list, {
    set(target, property, value: unknown) {
      const index = typeof property === 'string' && /^\d+$/.test(property);
      const appended = index && Number(property) === target.length;
      const stored = index ? wrapItem(value as T) : value;
      // A length that does not change (the second half of a push) changes nothing.
      const same = property === 'length' && value === target.length;
      (target as unknown as Record<PropertyKey, unknown>)[property] = stored;
      changed(proxy, same ? 'none' : appended ? 'append' : 'list', stored as T);
      return true;
    },
    deleteProperty(target, property) {
      delete (target as unknown as Record<PropertyKey, unknown>)[property];
      changed(proxy, 'list');
      return true;
    },
  });
  wrapped.add(proxy);
  targets.set(proxy, list);
  return proxy;
}

/** An object (as a Proxy) whose stores and deletes are reported. */
function observedObject<T extends object>(object: T, changed: (proxy: T) => void): T {
  if (typeof object !== 'object' || object === null || wrapped.has(object)) return object;
  const proxy = new Proxy(object, {
    set(target, property, value: unknown) {
      (target as Record<PropertyKey, unknown>)[property] = value;
      changed(proxy);
      return true;
    },
    deleteProperty(target, property) {
      delete (target as Record<PropertyKey, unknown>)[property];
      changed(proxy);
      return true;
    },
  });
  wrapped.add(proxy);
  return proxy;
}
