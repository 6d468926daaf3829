// The lock race of the built file, long: 20 cycles at once, 50 times (npm run test:stress).
import { defineLockRace } from '../../helpers/lock-race.js';

defineLockRace(50, 20, 1_200_000);
