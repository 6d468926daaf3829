// The lock's algorithm, the long run: 8 processes, 2,000 attempts each (npm run test:stress).
import { defineLockStress } from '../../helpers/lock-stress.js';

defineLockStress(8, 2000, 600_000);
