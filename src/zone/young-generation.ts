// A zone command holds a whole zone (100,000 records and more) until it ends. V8 doubles its
// young generation, up to 2 x 16 MiB, each time as much has survived it as it holds, and nearly
// everything a zone's reading makes survives: the young generation grew to its largest for
// nothing, about 40 MiB of the command's peak memory. Kept at its first size (1 MiB a half), what
// survives goes to the old generation at once; the command's CPU time stayed the same within
// the bench's spread (bench/zone-plan-cpu.mjs, docs/performance.md).
// A young generation of 1 MiB is collected by the main thread alone: handed to a second thread as
// well (V8's parallel scavenge), each of a no-change plan's 130 collections paused the main thread
// as long as without it (`--trace-gc-nvp`), and the helper's 21 ms were spent besides. (Within the
// spread of the bench's CPU times, which move by more than that on this machine.)
// A change of V8's flags, so the run saves no code cache (lib/v8-flags.ts).
import { changeV8Flags } from '../lib/v8-flags.js';

/**
 * From now on the young generation keeps the size it has (the flag is read at each growth), and is collected by the
 * main thread alone (read at each collection). For a process that reads a large zone.
 */
export function keepYoungGenerationSmall(): void {
  changeV8Flags('--semi-space-growth-factor=1 --no-parallel-scavenge');
}
