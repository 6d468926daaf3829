/**
 * The module object of a dynamic import, whether it arrives as an ES namespace (tests run
 * the sources) or as a CommonJS module under `default` (the bundle loads Node's built-ins and
 * CommonJS packages through require(), see build/build.mjs).
 */
export async function moduleOf<T extends object>(loading: Promise<T>): Promise<T> {
  const namespace = (await loading) as T & { default?: T };
  return namespace.default && typeof namespace.default === 'object' ? namespace.default : namespace;
}
