import { defineConfig } from 'vitest/config';
import { ramTempDir } from './test/support/ramTempDir';
import SlowestFilesFirst from './test/support/slowestFilesFirst.sequencer';

// temporary files (simulators' databases, Anvil logs, CLI data directories) in memory where the
// machine has it: no test waits on a disk's fsync (test/support/ramTempDir.ts); the workers, the
// pooled chains and every process a test starts inherit it
const tempDir = ramTempDir();
if (tempDir) process.env.TMPDIR = tempDir;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // test files share their worker's process and loaded modules (a file gets a fresh simulator,
    // or the worker's shared one reset to its start: test/support/sharedTestSimulator.ts):
    // loading src/ and its dependencies again for each of ~180 files cost about a third of the
    // suite's CPU time (docs/testing.md)
    isolate: false,
    // one set of Anvil chains per worker, started once (test/support/workerChains.globalSetup.ts)
    globalSetup: ['test/support/workerChains.globalSetup.ts'],
    // a file that names a status or transition in `covers:` must reach it (docs/testing.md)
    // and one that still holds the worker's shared simulator at its end gives it back
    setupFiles: ['test/support/reachedTransitions.setup.ts', 'test/support/closeClients.setup.ts', 'test/support/sharedTestSimulator.setup.ts'],
    // node, plus the worker's shared simulator stopped when the worker stops
    environment: './test/support/sharedTestSimulator.environment.ts',
    // 2 workers on 2 cores: 3 measured more CPU (modules loaded thrice) and no shorter run
    maxWorkers: 2,
    // the longest files start first, so that no worker is left alone with one at the end
    sequence: { sequencer: SlowestFilesFirst },
    // the modules vite transformed (src/, test/: TypeScript to JavaScript) are kept on disk between
    // runs (node_modules/.experimental-vitest-cache, keyed by each file's text and the config): a
    // run after a small edit transforms only what changed, ~3-4 s of CPU less in a run
    experimental: { fsModuleCache: true },
    // tests that must hold under garbage collection call global.gc() (e.g. webhook attempt timeouts)
    execArgv: ['--expose-gc'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
  },
});
