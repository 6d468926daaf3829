import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: { __DDEDGE_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    include: ['test/**/*.test.ts'],
    // The built artefacts' tests: npm run test:packaging (packaging/vitest.config.ts).
    exclude: ['test/packaging/**', '**/node_modules/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
