import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
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
