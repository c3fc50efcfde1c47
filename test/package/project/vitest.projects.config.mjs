// The four Vitest runs of the package test in one Vitest process (one start of Vitest and one loading of
// intentsim/vitest instead of four): each config below is a project, with its own globalSetup and so its
// own simulator, named as its output lines show it (|inject|, …). The three that run files one at a time
// share one worker (VITEST_POOL_ID=1), after the parallel one's two workers, a group of their own.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { extends: './vitest.config.mjs', test: { name: 'inject', fileParallelism: false } },
      { extends: './vitest.isolated.config.mjs', test: { name: 'isolated' } },
      { extends: './vitest.unisolated.config.mjs', test: { name: 'unisolated', fileParallelism: false } },
      { extends: './vitest.parallel.config.mjs', test: { name: 'parallel' } },
    ],
  },
});
