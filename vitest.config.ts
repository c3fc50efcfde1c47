import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // test files share their worker's process and loaded modules (each file still gets a fresh
    // simulator): loading src/ and its dependencies again for each of ~180 files cost about half
    // of the suite's CPU time (docs/testing.md)
    isolate: false,
    // one set of Anvil chains per worker, started once (test/support/workerChains.globalSetup.ts)
    globalSetup: ['test/support/workerChains.globalSetup.ts'],
    // a file that names a status or transition in `covers:` must reach it (docs/testing.md)
    setupFiles: ['test/support/reachedTransitions.setup.ts'],
    maxWorkers: 2,
    // tests that must hold under garbage collection call global.gc() (e.g. webhook attempt timeouts)
    execArgv: ['--expose-gc'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
  },
});
