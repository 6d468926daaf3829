import { defineConfig } from 'vitest/config';

// The unit tests as Stryker runs them (`npm run test:mutation`, stryker.config.mjs): in-process
// only, so no dist/ build and no global setup. Left out: test/unit/packaging and test/unit/build
// (they run npm or the built files) and the one HTTPS test, whose certificate the global setup
// makes; none of them reaches a mutated module. Stryker runs the files in worker threads.
export default defineConfig({
  define: { __DDEDGE_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    include: ['test/unit/**/*.test.ts'],
    exclude: [
      'test/unit/packaging/**',
      'test/unit/build/**',
      'test/unit/http/request.test.ts',
      'test/**/*.stress.test.ts',
      '**/node_modules/**',
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
