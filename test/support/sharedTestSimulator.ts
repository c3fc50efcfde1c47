import { expect } from 'vitest';
import { pooledChains } from './pooledNodes';
import { testSimulatorOptions } from './startTestSimulator';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { sharedSimulatorSlot, type SharedSimulatorSlot } from './sharedSimulatorSlot';

/**
 * This worker's one simulator with the default test options (what `startTestSimulator()` with no
 * options gives), shared by the test files the worker runs one after another (`isolate: false`:
 * the worker's process and modules stay across files). Started on first use, on the worker's
 * second set of pooled chains (no other file's simulator resets those, which would wipe its
 * snapshots). A file takes it in `beforeAll` and calls `stop()` in `afterAll` as with its own
 * simulator: here `stop()` releases it, putting the world back to the start's with `sim.reset()`
 * (docs/control-plane.md, "World snapshots"; ~20 ms where a start costs ~190 ms of CPU).
 * What a world reset does not roll back is set back on release too: every EVM chain mines on each
 * transaction again (automine, no interval mining). Two files never hold it at once: taking it
 * before the last holder released throws. A file that ends still holding it (its `beforeAll`
 * failed first) has it released by sharedTestSimulator.setup.ts; the worker's test environment
 * (sharedTestSimulator.environment.ts) stops it when the worker exits.
 *
 * Not for a file that needs what a reset does not give back: one that sets options other than
 * the defaults, stops its simulator to test stopping, restarts on its database, keeps event
 * subscriptions or streams open past its end, or leaves HTTP requests or a gasless relay's
 * inclusion timer running at its end. Those start their own (`startTestSimulator(options)`).
 */
export async function sharedTestSimulator(): Promise<RunningSimulator> {
  const slot = sharedSimulatorSlot();
  if (slot.heldBy !== undefined) throw new Error(`the shared test simulator is still held by ${slot.heldBy}: release it (sim.stop()) before another file takes it`);
  slot.heldBy = expect.getState().testPath ?? 'a test file';
  slot.release = () => release(slot);
  try {
    slot.started ??= startSimulator(testSimulatorOptions(pooledChains(undefined, 'sharedSimulatorChains')));
    const sim = await slot.started;
    return { ...sim, stop: slot.release };
  } catch (error) {
    slot.started = undefined;
    slot.heldBy = undefined;
    throw error;
  }
}

async function release(slot: SharedSimulatorSlot): Promise<void> {
  if (slot.heldBy === undefined || !slot.started) return;
  try {
    const sim = await slot.started;
    for (const chain of sim.chains) await sim.control.chain(chain.id).setAutomine(true);
    await sim.reset();
  } catch (error) {
    // a world it could not put back is not handed to the next file: that one starts it afresh
    await slot.stop();
    throw error;
  } finally {
    slot.heldBy = undefined;
  }
}
