import { beforeEach, inject } from 'vitest';
import { refuseParallelWorkers, resetWorld } from './resetWorld';
import type {} from './vitestGlobalSetup';

/**
 * `setupFiles: ['intentsim/vitest/isolate']` beside `globalSetup: ['intentsim/vitest']`: before
 * each test the shared simulator goes back to the world its start left (`POST /admin/reset`), so
 * every test sees the start's balances and an empty listing. Test files must run one at a time
 * (`fileParallelism: false`); a second parallel worker refuses to run.
 */
refuseParallelWorkers('vitest');

beforeEach(async () => {
  const context = inject('intentsim');
  if (context === undefined) throw new Error("intentsim/vitest/isolate: no simulator for this run: add 'intentsim/vitest' (or your intentsimGlobalSetup file) to globalSetup");
  await resetWorld(context);
});
