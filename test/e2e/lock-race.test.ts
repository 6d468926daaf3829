// The lock race of the built file, short: 20 cycles at once, over a free lock and over a stale
// one. The long run (50 rounds) is lock-race.stress.test.ts, in `npm run test:stress`.
import { defineLockRace } from '../helpers/lock-race.js';

defineLockRace(2, 20, 300_000);
