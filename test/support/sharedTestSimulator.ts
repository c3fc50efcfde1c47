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
 * (docs/control-plane.md, "World snapshots"; ~20 ms where a start costs ~190 ms of CPU), every
 * chain's mining mode (automine, interval mining) included. Two files never hold it at once: taking it
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
  if (slot.stoppedOnItsOwn) {
    // it stopped while no file held it: this file gets a new one, and the reason is shown
    console.warn(slot.stoppedOnItsOwn.message);
    slot.stoppedOnItsOwn = undefined;
  }
  slot.heldBy = expect.getState().testPath ?? 'a test file';
  slot.release = () => release(slot);
  try {
    slot.started ??= startShared(slot);
    const sim = await slot.started;
    return { ...sim, stop: slot.release };
  } catch (error) {
    slot.started = undefined;
    slot.heldBy = undefined;
    throw error;
  }
}

/**
 * Starts the shared simulator. Should it stop on its own (a chain's watcher lost its node: the
 * simulator's `fatal`), the slot forgets it, so that the next file starts another, and the reason
 * with the simulator's last log lines fails the holder's release (or, if no file held it, shows
 * when the next file takes one).
 */
function startShared(slot: SharedSimulatorSlot): Promise<RunningSimulator> {
  const lastLines: string[] = [];
  const log = (message: string, error?: unknown) => {
    lastLines.push(error instanceof Error ? `${message} (${error.message})` : message);
    if (lastLines.length > 20) lastLines.shift();
  };
  const started = startSimulator({ ...testSimulatorOptions(pooledChains(undefined, 'sharedSimulatorChains')), log });
  void started.then((sim) =>
    sim.fatal.then((error) => {
      if (slot.started !== started) return;
      slot.started = undefined;
      slot.stoppedOnItsOwn = new Error(`the shared test simulator stopped on its own while ${slot.heldBy ?? 'no file'} held it or at its release: ${error.message}; its last log lines:\n${lastLines.join('\n')}`, { cause: error });
    }),
  );
  return started;
}

async function release(slot: SharedSimulatorSlot): Promise<void> {
  if (slot.heldBy === undefined) return;
  try {
    if (slot.started) {
      await (await slot.started).reset();
    }
  } catch (error) {
    // a world it could not put back is not handed to the next file: that one starts it afresh
    await slot.stop();
    throw slot.stoppedOnItsOwn ?? error;
  } finally {
    slot.heldBy = undefined;
  }
  const stopped = slot.stoppedOnItsOwn;
  slot.stoppedOnItsOwn = undefined;
  if (stopped) throw stopped;
}
