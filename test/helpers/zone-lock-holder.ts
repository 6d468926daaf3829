// A process that holds the machine-wide lock of a zone of an account (state/machine-lock.ts),
// as another `zone apply` with its own state directory would: it says `held PID` once it holds
// it, and lets it go when its standard input ends (bundled by the test with esbuild).
import { folderGoesWithLock, machineZoneLockDir } from '../../src/state/machine-lock.js';
import { acquireLock } from '../../src/state/lock.js';

const [account = '', zone = ''] = process.argv.slice(2);
const dir = machineZoneLockDir(account, zone);
const lock = folderGoesWithLock(acquireLock(dir), dir);
process.stdout.write(`held ${process.pid}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  lock.release();
  process.exit(0);
});
