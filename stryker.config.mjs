// Mutation testing (`npm run test:mutation`, not part of `npm test`: it takes many minutes): Stryker
// changes the modules that decide what reaches the provider, one small change (a mutant) at a
// time, and runs the unit tests that reach it; a mutant no test notices is an assertion missing.
// One module: `npm run test:mutation -- --mutate src/lib/names.ts`. See docs/development.md.
/** Stryker's options (PartialStrykerOptions in @stryker-mutator/api/core). */
export default {
  testRunner: 'vitest',
  // The first run of the whole unit suite takes minutes on a busy 2-core machine.
  dryRunTimeoutMinutes: 30,
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate: [
    'src/zone/plan/**/*.ts',
    'src/gateway/update/**/*.ts',
    'src/gateway/dyndns2/**/*.ts',
    // The HTTP door's credentials and guess limit (below dyndns2/, shared with acme-http/), and its ACME protocols.
    'src/gateway/keys/credentials.ts',
    'src/gateway/limits/guess-limit.ts',
    'src/gateway/acme-http/**/*.ts',
    'src/dyndns/parse.ts',
    'src/ip/detect.ts',
    'src/state/budget.ts',
    'src/lib/names.ts',
  ],
  // Each mutant runs only the tests that reached its code in the first, full run.
  coverageAnalysis: 'perTest',
  // A mutant of a module-level constant (a regular expression, a bound) is live from the import
  // on, so every test would run for it: with names.ts, an hour on a busy 2-core machine. They are
  // left out of the score; the functions that use the constants are mutated like the rest.
  ignoreStatic: true,
  // Results of unchanged code and tests are reused from the last run (the file is not committed).
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  // Two cores, shared: one test process unless told otherwise (--concurrency).
  concurrency: 1,
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  // Stryker rewrites the tsconfig it is pointed at through TypeScript's JavaScript API, which
  // TypeScript 7 no longer has; ours has no `extends` or references to rewrite, and vitest does not
  // read it, so it is pointed at no file and the sandbox keeps tsconfig.json as it is.
  tsconfigFile: '',
};
