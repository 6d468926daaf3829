// A process that competes for the state directory's lock as fast as it can, for the lock's
// stress test (bundled by the test with esbuild, run as many processes at once). Holding the
// lock, it creates `holder` with O_EXCL: finding it there means two holders at once. Some
// holders "die" holding it (the lock is left naming a dead process) so that takeovers race.
import { closeSync, openSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BusyError } from '../../src/lib/errors.js';
import { acquireLock, type Lock } from '../../src/state/lock.js';

const [dir = '.', iterationsText = '0', seedText = '1'] = process.argv.slice(2);
const iterations = Number(iterationsText);
let seed = Number(seedText);
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
let held = 0;
let overlaps = 0;
for (let i = 0; i < iterations; i++) {
  let lock: Lock;
  try {
    lock = acquireLock(dir);
  } catch (error) {
    if (!(error instanceof BusyError)) throw error;
    continue;
  }
  held++;
  const holder = join(dir, 'holder');
  try {
    closeSync(openSync(holder, 'wx'));
  } catch {
    overlaps++;
  }
  pause(random() < 0.5 ? 0 : 1);
  try {
    unlinkSync(holder);
  } catch {
    // the other holder removed it
  }
  // One time in four, "die" holding the lock: it is left naming a process that is gone.
  if (random() < 0.25) writeFileSync(join(dir, 'lock'), '999999999 dead\n');
  lock.release();
}
process.stdout.write(JSON.stringify({ held, overlaps }) + '\n');
