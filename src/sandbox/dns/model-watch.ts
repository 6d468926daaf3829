// Knowing that the sandbox's model changed without looking at it: every write to the list of
// services, to a service's `dns` list or to one of its entries bumps a counter, whatever code
// makes it (an API operation, the dynamic DNS interface, a test holding the model). The name
// server then re-reads a zone only after a change, never on every question: a fingerprint of
// 50,000 entries per query held it to about 120 queries a second.
// A watched model is read and serialised (JSON) as before; structuredClone refuses its proxies:
// copy a watched service through JSON instead.
import type { DnsEntry } from '../../api/endpoints/service.js';
import type { SandboxModel, SandboxService } from '../model.js';

const generations = new WeakMap<SandboxModel, { value: number }>();
const wrapped = new WeakSet<object>();

/** The model's change counter; the first call starts watching it. */
export function generationOf(model: SandboxModel): number {
  let counter = generations.get(model);
  if (!counter) {
    counter = { value: 0 };
    generations.set(model, counter);
    const bump = () => void (counter!.value = (counter!.value + 1) >>> 0);
    const entry = (e: DnsEntry): DnsEntry => observedObject(e, bump);
    const service = (s: SandboxService): SandboxService => {
      if (wrapped.has(s) || typeof s !== 'object' || s === null) return s;
      wrapped.add(s);
      observeProperty(s, 'dns', (list: DnsEntry[]) => observedArray(list, entry, bump), bump);
      return s;
    };
    observeProperty(model, 'services', (list: SandboxService[]) => observedArray(list, service, bump), bump);
  }
  return counter.value;
}

/** Replaces `object[key]` by an accessor that wraps what is stored and reports each store. */
function observeProperty<T extends object, K extends keyof T>(object: T, key: K, wrap: (value: T[K]) => T[K], changed: () => void): void {
  let value = wrap(object[key]);
  Object.defineProperty(object, key, {
    enumerable: true,
    configurable: true,
    get: () => value,
    set: (next: T[K]) => {
      value = wrap(next);
      changed();
    },
  });
}

/** An array (as a Proxy) whose stores and deletes are reported; items are wrapped as they come in. */
function observedArray<T>(list: T[], wrapItem: (item: T) => T, changed: () => void): T[] {
  if (!Array.isArray(list) || wrapped.has(list)) return list;
  for (let i = 0; i < list.length; i++) list[i] = wrapItem(list[i]!);
  const proxy = new Proxy(list, {
    set(target, property, value: unknown) {
      const index = typeof property === 'string' && /^\d+$/.test(property);
      (target as unknown as Record<PropertyKey, unknown>)[property] = index ? wrapItem(value as T) : value;
      changed();
      return true;
    },
    deleteProperty(target, property) {
      delete (target as unknown as Record<PropertyKey, unknown>)[property];
      changed();
      return true;
    },
  });
  wrapped.add(proxy);
  return proxy;
}

/** An object (as a Proxy) whose stores and deletes are reported. */
function observedObject<T extends object>(object: T, changed: () => void): T {
  if (typeof object !== 'object' || object === null || wrapped.has(object)) return object;
  const proxy = new Proxy(object, {
    set(target, property, value: unknown) {
      (target as Record<PropertyKey, unknown>)[property] = value;
      changed();
      return true;
    },
    deleteProperty(target, property) {
      delete (target as Record<PropertyKey, unknown>)[property];
      changed();
      return true;
    },
  });
  wrapped.add(proxy);
  return proxy;
}
