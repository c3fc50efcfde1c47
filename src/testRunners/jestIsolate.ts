import { intentsimContext, resetWorld } from './jest';
import { refuseParallelWorkers } from './resetWorld';

/** Jest's `beforeEach`, a global in a test file's environment (and in `setupFilesAfterEnv`). */
type HookRegistry = typeof globalThis & { beforeEach?: (hook: () => Promise<void>) => void };

/**
 * `setupFilesAfterEnv: ['intentsim/jest/isolate']` beside the global setup: before each test the
 * shared simulator goes back to the world its start left (`POST /admin/reset`). Test files must
 * run one at a time (`--runInBand` or `maxWorkers: 1`); a second parallel worker refuses to run.
 */
refuseParallelWorkers('jest');

const { beforeEach } = globalThis as HookRegistry;
if (typeof beforeEach !== 'function') throw new Error('intentsim/jest/isolate: no global beforeEach here: list it in setupFilesAfterEnv of the Jest config');
beforeEach(() => resetWorld(intentsimContext()));
