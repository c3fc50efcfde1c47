import type { ProvidedContext } from 'vitest';
import type { StartSimulatorOptions } from '../index';
import { startSharedSimulator, type IntentsimContext } from './sharedSimulator';

export type { IntentsimContext } from './sharedSimulator';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The simulator `intentsim/vitest` started for this run: `inject('intentsim')`. */
    intentsim: IntentsimContext;
  }
}

/**
 * The part of Vitest's `TestProject` a global setup uses (Vitest 1 to 4 all pass one). Naming
 * `ProvidedContext` here keeps Vitest's types imported, which the augmentation above needs.
 */
export interface ProvidingProject {
  provide(key: 'intentsim', value: ProvidedContext['intentsim']): void;
}

/**
 * A Vitest `globalSetup` that starts one simulator for the run, `provide`s its
 * {@link IntentsimContext} as `intentsim`, and stops it when the run ends.
 */
export function intentsimGlobalSetup(options: StartSimulatorOptions = {}): (project: ProvidingProject) => Promise<() => Promise<void>> {
  return async (project) => {
    const simulator = await startSharedSimulator(options);
    project.provide('intentsim', simulator.context);
    return () => simulator.stop();
  };
}

/** `globalSetup: ['intentsim/vitest']`: the simulator with its defaults and the `INTENTSIM_*` environment. */
export default intentsimGlobalSetup();
