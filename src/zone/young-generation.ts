// A zone command holds a whole zone (100,000 records and more) until it ends. V8 doubles its
// young generation, up to 2 x 16 MiB, each time as much has survived it as it holds, and nearly
// everything a zone's reading makes survives: the young generation grew to its largest for
// nothing, about 40 MiB of the command's peak memory. Kept at its first size (1 MiB a half), what
// survives goes to the old generation at once; the command's CPU time stayed the same within
// the bench's spread (bench/zone-plan-cpu.mjs, docs/performance.md).
//
// V8 takes a code cache only under the flags it was made under: a cache made at the end of such a
// run fits no later one (the chunks loaded before the change are refused it), so the launcher is
// told, and saves none (bootstrap/launcher.ts); each zone run wrote a dozen caches again.
import { setFlagsFromString } from 'node:v8';

/**
 * From now on the young generation keeps the size it has (the flag is read at each growth). For a
 * process that reads a large zone.
 */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
  (globalThis as Record<symbol, unknown>)[Symbol.for(V8_FLAGS_CHANGED)] = true;
}

/** The launcher's mark (a symbol of the global registry: it is another bundle) of a run whose V8 flags changed. */
const V8_FLAGS_CHANGED = 'ddedge.v8-flags-changed';
