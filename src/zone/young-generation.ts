// A zone command holds a whole zone (100,000 records and more) until it ends. V8 doubles its
// young generation, up to 2 x 16 MiB, each time as much has survived it as it holds, and nearly
// everything a zone's reading makes survives: the young generation grew to its largest for
// nothing, about 40 MiB of the command's peak memory. Kept at its first size (1 MiB a half), what
// survives goes to the old generation at once; the command's CPU time stayed the same within
// the bench's spread (bench/zone-plan-cpu.mjs, docs/performance.md).
// A change of V8's flags, so the run saves no code cache (lib/v8-flags.ts).
import { changeV8Flags } from '../lib/v8-flags.js';

/**
 * From now on the young generation keeps the size it has (the flag is read at each growth). For a
 * process that reads a large zone.
 */
export function keepYoungGenerationSmall(): void {
  changeV8Flags('--semi-space-growth-factor=1');
}
