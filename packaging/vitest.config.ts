// npm run test:packaging: the tests of the built artefacts (test/packaging/), apart from `npm
// test` because building the artefacts takes minutes (npm run build:binaries, build:deb).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/packaging/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One at a time: each runs a whole program, some under emulation.
    fileParallelism: false,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
