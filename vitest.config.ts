import { defineConfig } from 'vitest/config';

// `npm test`: everything but the long stress runs (*.stress.test.ts, `npm run test:stress`).
// The bounds are for a loaded 2-core machine: a test waits for events (a child's output, a
// request arriving), never for time, and the timeouts only stop a hang. A start of the built
// file took 8 s there at a load of 20, so a test that starts several needs minutes, not one.
export default defineConfig({
  define: { __DDEDGE_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    include: ['test/**/*.test.ts'],
    // The built artefacts' tests: npm run test:packaging (packaging/vitest.config.ts); the long
    // stress runs: npm run test:stress (vitest.stress.config.ts).
    exclude: ['test/packaging/**', 'test/**/*.stress.test.ts', '**/node_modules/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Most tests wait on the processes they start: two files at once keep both cores busy
    // (vitest's default on 2 cores is one).
    maxWorkers: 2,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
