// The lock race of the built file, short: 10 cycles at once, over a free lock and over a stale
// one (each a start of the built file: 20 cost the suite 4 s of CPU). The long run (20 cycles,
// 50 rounds) is lock-race.stress.test.ts, in `npm run test:stress`.
import { defineLockRace } from '../../helpers/lock-race.js';

defineLockRace(2, 10, 300_000);
