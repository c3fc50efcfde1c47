import { builtinEnvironments, type Environment } from 'vitest/runtime';
import { sharedSimulatorSlot } from './sharedSimulatorSlot';

/**
 * vitest's node environment, plus: when the worker stops (after its last file; one environment
 * per worker with `isolate: false`), its shared test simulator is stopped (sharedTestSimulator.ts).
 * A setup file's `afterAll` runs per file, too early; the worker process gets no exit handler.
 */
export default {
  name: 'node-with-shared-simulator',
  viteEnvironment: 'ssr',
  async setup(global, options) {
    const node = await builtinEnvironments.node.setup(global, options);
    return {
      async teardown(torn) {
        await sharedSimulatorSlot().stop();
        await node.teardown(torn);
      },
    };
  },
} satisfies Environment;
