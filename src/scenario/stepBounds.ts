import { z } from 'zod';
import { IntentsimError } from '../errors/IntentsimError';

/**
 * How long one scenario step may take (its action and everything it sets off settling) before the
 * scenario fails there, naming the step and what is still pending instead of waiting on in silence:
 * - `wallSeconds`: real time (a step waiting for a receipt no later step mines, a node that stopped
 *   answering);
 * - `clockSeconds`: how far one step may move the virtual clock (the clock moves only at
 *   `advanceClock` steps on a scenario's manual clock; every timer due in between fires, and a
 *   Bitcoin chain mining every few minutes of it mines that many blocks).
 */
export interface ScenarioStepBounds {
  wallSeconds: number;
  clockSeconds: number;
}

export const DEFAULT_STEP_BOUNDS: ScenarioStepBounds = { wallSeconds: 60, clockSeconds: 7 * 24 * 3600 };

/** A scenario file's `stepBounds:` (either bound; the other keeps its default). */
export const StepBoundsSchema = z
  .object({
    wallSeconds: z.number().positive().max(3600),
    clockSeconds: z.number().positive().max(10 * 365 * 24 * 3600),
  })
  .partial()
  .strict();

/** The bound reached: the runner adds the step and what it waits on. */
export class StepBoundReached extends IntentsimError {}

/** `work`, or StepBoundReached once `seconds` of real time pass first (the work is left to end on its own; its failure is ignored). */
export async function withinWallTime<T>(work: Promise<T>, seconds: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StepBoundReached(`${what} did not end within ${seconds} s of real time (the step's wall-time bound)`)), seconds * 1000);
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, bound]);
  } finally {
    clearTimeout(timer);
  }
}
