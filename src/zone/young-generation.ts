// A zone command holds a whole zone (100,000 records and more) until it ends. V8 doubles its
// young generation, up to 2 x 16 MiB, each time as much has survived it as it holds, and nearly
// everything a zone's reading makes survives: the young generation grew to its largest for
// nothing, about 40 MiB of the command's peak memory. Kept at its first size (1 MiB a half), what
// survives goes to the old generation at once; the command's CPU time stayed the same within
// the bench's spread (bench/zone-plan-cpu.mjs, docs/performance.md).
//
// It is a change of V8's flags, and V8 takes a code cache only under the flags it was made
// under: it is made before the zone command's code is loaded (cli/registry.ts), so that the
// caches of that code, made at the end of a run, fit the next run (bootstrap/launcher.ts).

/**
 * From now on the young generation keeps the size it has (the flag is read at each growth, and
 * changes nothing else). For a process that reads a large zone. node:v8 is reached only here:
 * loaded by every command, it would cost each run about a millisecond.
 */
export function keepYoungGenerationSmall(): void {
  process.getBuiltinModule('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
}
