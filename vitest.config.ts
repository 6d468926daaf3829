import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// `npm test`: everything but the long stress runs (*.stress.test.ts, `npm run test:stress`).
// The bounds are for a loaded 2-core machine: a test waits for events (a child's output, a
// request arriving), never for time, and the timeouts only stop a hang. A start of the built
// file took 8 s there at a load of 20, so a test that starts several needs minutes, not one.
const include = ['test/**/*.test.ts'];
// The built artefacts' tests: npm run test:packaging (packaging/vitest.config.ts); the long
// stress runs: npm run test:stress (vitest.stress.config.ts).
const exclude = ['test/packaging/**', 'test/**/*.stress.test.ts', '**/node_modules/**'];

/**
 * Files that replace modules with vi.mock: a mock lives as long as its worker, so these get a
 * worker of their own. Every other file shares one (project "shared" below).
 */
const mocking = readdirSync(join(import.meta.dirname, 'test'), { recursive: true, encoding: 'utf8' })
  .map((name) => join('test', name))
  .filter(
    (file) =>
      file.endsWith('.test.ts') && !file.endsWith('.stress.test.ts') && !file.startsWith(join('test', 'packaging')),
  )
  .filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(join(import.meta.dirname, file), 'utf8')));

export default defineConfig({
  define: { __DDEDGE_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    // Both projects run it; it builds once (global-setup.ts).
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Most tests wait on the processes they start (certbot, lego and Pebble for half a minute):
    // three files at once keep both cores busy (vitest's default on 2 cores is one). Loaded
    // (a CPU hog on one of 2 cores), three took 3:37, two 3:52. For both projects together.
    maxWorkers: 3,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // `npm run coverage` (the unit tests only): every file of src/, reached or not, in
    // coverage/; scripts/coverage-folders.mjs prints the figures per folder from the summary.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['json-summary', 'html'],
      reportsDirectory: 'coverage',
    },
    // Each project names its own files: with `extends`, lists set here would be added to theirs.
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include,
          exclude: [...exclude, ...mocking],
          // A process start and vitest's own start for each of ~160 files cost ~75 s of CPU, a
          // fifth of the suite's. Files run one after another in a worker instead; each still
          // gets this project's modules afresh (fresh-modules.ts). What a file changes in the
          // process itself (process.env, its listeners, the global dispatcher) it must undo.
          isolate: false,
          setupFiles: ['test/helpers/fresh-modules.ts'],
        },
      },
      ...(mocking.length ? [{ extends: true as const, test: { name: 'isolated', include: mocking } }] : []),
    ],
  },
});
