// The lock's algorithm, a short burst: 8 processes, 150 attempts each. The long run is
// lock-stress.stress.test.ts, in `npm run test:stress`.
import { defineLockStress } from '../../helpers/lock-stress.js';

defineLockStress(8, 150, 300_000);
