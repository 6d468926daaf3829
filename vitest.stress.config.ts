import { defineConfig } from 'vitest/config';
import base from './vitest.config';

// `npm run test:stress`: the long runs that prove rare races absent (the lock taken by 20
// cycles at once, 50 times; 8 processes taking it 2,000 times each). One file at a time: they
// are the load. Not mergeConfig: it would add these patterns to the suite's, not replace them.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // One project, each file in a worker of its own: not the suite's two (vitest.config.ts).
    projects: undefined,
    include: ['test/**/*.stress.test.ts'],
    exclude: ['**/node_modules/**'],
    maxWorkers: 1,
    testTimeout: 1_200_000,
  },
});
