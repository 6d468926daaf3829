import { changeV8Flags } from './v8-flags.js';

// The memory of a command that runs for weeks (the daemon) on a small router, where every
// cycle is garbage (a few hundred kilobytes, all dead when the cycle ends) and nothing is hot.
// - V8 doubles its young generation each time it fills, up to 2 x 16 MiB (64 MiB on Node 26),
//   and keeps it: it stays at its starting size instead (a cycle fills it a few times; each
//   scavenge finds almost nothing alive).
// - V8's optimizing compiler (TurboFan) compiled a cycle's functions again and again on its
//   threads, whose memory stayed with the process, for code that runs once every few minutes:
//   without it a daemon's cycles ran faster (531 against 250 a second, forced by SIGUSR1).
// - Its old generation grows by V8's smaller factors (--optimize-for-size) before a full
//   collection: what a cycle leaves is dead by then.
// With a collection after each cycle (collectAfterCycle, below) a daemon of two hosts through
// 3,000 forced cycles stayed within 1.02 x its RSS at start (1.06 x with HTTPS sources),
// against 2.39 x before (bench/soak.mjs). V8 reads these flags when it next needs them, so
// they work set at run time (the chunks loaded before keep the caches they were given).
export function keepLongRunningHeapSmall(): void {
  changeV8Flags('--semi-space-growth-factor=1 --no-opt --optimize-for-size');
}

/**
 * The gateway's, set at its start (V8 reads them when it next needs them):
 * - its old generation grows by V8's smaller factors (--optimize-for-size), so that the garbage
 *   of reading a large zone (the provider's pages, the records before they are indexed) is
 *   collected before the heap grows past it: in front of a 50,000-record zone its peak RSS fell
 *   from about 150 to 105 MiB (bench/gateway.mjs);
 * - its young generation stays at its starting size (as the daemon's): the start's reading of a
 *   large zone filled it again and again, and each time V8 doubled it, and kept it doubled
 *   (50,000 records: 93 to 87 MiB);
 * - on Node 20 (V8 11), a function is optimized after 4 times as much of its code has run as by
 *   default: the start ran its parsing and indexing loops just often enough for the optimizing
 *   compiler, whose work on a background thread took 4 MiB of peak RSS for code never run hot
 *   again (a gateway with a small zone: 54 to 50 MiB). Code that queries keep hot (the answer
 *   path) is still optimized, a little later: CPU per query after 20,000 queries is unchanged.
 *   Later V8s count calls instead (--invocation-count-for-turbofan), and raising those counts
 *   changed nothing measurable on Node 22: left as they are.
 * Its optimizing compiler stays on: without it a query took twice the CPU (bench/gateway.mjs).
 */
export function keepGatewayHeapSmall(): void {
  const laterTierUp = Number(process.versions.v8.split('.')[0]) < 12 ? ` --interrupt-budget=${4 * 132 * 1024}` : '';
  changeV8Flags(`--optimize-for-size --semi-space-growth-factor=1${laterTierUp}`);
}

let collect: (() => void) | undefined;

/**
 * The last act of a long-running command before process.exit(): a full collection. V8's background
 * threads (a compile job, a concurrent task) that ran out of heap wait for the main thread to collect
 * garbage, and process.exit() joins those threads without ever collecting again: a gateway was found
 * alive 40 minutes after SIGTERM, its main thread waiting for the one V8 thread left. Collected now,
 * none is left waiting, and the heap has room for what still runs. A few milliseconds, once.
 */
export const collectBeforeExit = (): void => collectAfterCycle();

/**
 * A full collection after each cycle of a long-running command: what the cycle made is dead
 * by then, and V8, busy with cycle after cycle (forced ones, a short interval), would let its
 * heap grow before collecting it. A few milliseconds once a cycle. The collector is reached
 * through a fresh context, where --expose-gc puts it; the program's own global is untouched.
 */
export function collectAfterCycle(): void {
  if (!collect) {
    changeV8Flags('--expose-gc');
    collect = process.getBuiltinModule('node:vm').runInNewContext('gc') as () => void;
  }
  collect();
}
