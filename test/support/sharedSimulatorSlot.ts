import type { RunningSimulator } from '../../src/simulator';

/**
 * Where a worker keeps its shared test simulator (sharedTestSimulator.ts): on globalThis, so that
 * the setup file and the worker's test environment, loaded apart from the test files' modules,
 * find the same one. Imports nothing at run time.
 */
export interface SharedSimulatorSlot {
  started: Promise<RunningSimulator> | undefined;
  /** The test file holding it now (undefined: free). */
  heldBy: string | undefined;
  /** Why it stopped on its own since the last release (the next release fails with it). */
  stoppedOnItsOwn?: Error | undefined;
  /** Gives it back: the world reset to the start's (set by sharedTestSimulator.ts). */
  release(): Promise<void>;
  /** Stops it; the next file to take it starts another. */
  stop(): Promise<void>;
}

const SLOT = Symbol.for('intentsim.test.sharedSimulator');

export function sharedSimulatorSlot(): SharedSimulatorSlot {
  const holder = globalThis as typeof globalThis & { [SLOT]?: SharedSimulatorSlot };
  return (holder[SLOT] ??= {
    started: undefined,
    heldBy: undefined,
    release: async () => undefined,
    async stop() {
      const started = this.started;
      this.started = undefined;
      this.heldBy = undefined;
      this.stoppedOnItsOwn = undefined;
      if (started) await (await started.catch(() => undefined))?.stop();
    },
  });
}
