// The one place ddedge changes V8's flags while it runs (the heap of a long-running command, a zone
// command's young generation, the collector reached before exit). V8 takes a code cache only under
// the flags it was made under: a cache made after such a change fits no later run (its chunks are
// loaded before the change), so the launcher is told, and saves none at exit (bootstrap/launcher.ts);
// otherwise every run would compile the same chunks and write their caches again.

/** The launcher's mark of a run whose V8 flags changed (a global symbol: the launcher is another bundle). */
const V8_FLAGS_CHANGED = 'ddedge.v8-flags-changed';

/** Sets V8 flags from now on (`--name=value …`), and marks the run as one whose code caches fit no other. */
export function changeV8Flags(flags: string): void {
  process.getBuiltinModule('node:v8').setFlagsFromString(flags);
  (globalThis as Record<symbol, unknown>)[Symbol.for(V8_FLAGS_CHANGED)] = true;
}
