import { afterAll } from 'vitest';
import { sharedSimulatorSlot } from './sharedSimulatorSlot';

// every test file: the worker's shared simulator, if the file still holds it at its end (its own
// afterAll did not get to `stop()` it), is given back for the next file (sharedTestSimulator.ts)
afterAll(async () => {
  const slot = sharedSimulatorSlot();
  if (slot.heldBy !== undefined) await slot.release();
});
