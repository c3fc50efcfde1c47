import type { StartSimulatorOptions } from '../index';
import { startSharedSimulator, type IntentsimContext, type SharedSimulator } from './sharedSimulator';

export type { IntentsimContext } from './sharedSimulator';
export { resetWorld } from './resetWorld';

/** Where the global setup hands the simulator's context to test files (Jest runs them in workers, which inherit it). */
export const CONTEXT_ENVIRONMENT_VARIABLE = 'INTENTSIM_CONTEXT';

/** The running simulator, from global setup to global teardown (both run in Jest's main process). */
const RUNNING = Symbol.for('intentsim.jest.sharedSimulator');
type WithSimulator = typeof globalThis & { [RUNNING]?: SharedSimulator };

/**
 * A Jest `globalSetup` that starts one simulator for the run and puts its
 * {@link IntentsimContext} in the environment, where {@link intentsimContext} reads it.
 */
export function createGlobalSetup(options: StartSimulatorOptions = {}): () => Promise<void> {
  return async () => {
    const holder = globalThis as WithSimulator;
    if (holder[RUNNING]) throw new Error('intentsim: a simulator is already running for this test run (globalSetup ran twice without globalTeardown)');
    const simulator = await startSharedSimulator(options);
    holder[RUNNING] = simulator;
    process.env[CONTEXT_ENVIRONMENT_VARIABLE] = JSON.stringify(simulator.context);
  };
}

/** The global setup with the simulator's defaults and the `INTENTSIM_*` environment. */
export const globalSetup: () => Promise<void> = createGlobalSetup();

/** Jest's `globalTeardown`: stops the simulator the global setup started (nothing if none runs). */
export async function globalTeardown(): Promise<void> {
  const holder = globalThis as WithSimulator;
  const simulator = holder[RUNNING];
  delete holder[RUNNING];
  delete process.env[CONTEXT_ENVIRONMENT_VARIABLE];
  await simulator?.stop();
}

/** In a test file: the simulator the global setup started (its URL, chains, accounts, API key). */
export function intentsimContext(): IntentsimContext {
  const text = process.env[CONTEXT_ENVIRONMENT_VARIABLE];
  if (text === undefined || text === '') {
    throw new Error(`intentsim: no simulator for this test run (${CONTEXT_ENVIRONMENT_VARIABLE} is not set): add intentsim/jest/global-setup as Jest's globalSetup`);
  }
  return JSON.parse(text) as IntentsimContext;
}
