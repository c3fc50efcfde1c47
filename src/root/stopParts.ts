/** A part of the simulator that holds something to give back (a process, a socket, a file, a timer). */
export interface StoppablePart {
  stop(): void | Promise<void>;
}

/**
 * Stops the parts in the order given (parts not started yet are `undefined` and skipped), each
 * even when an earlier one failed; throws every failure together.
 */
export async function stopParts(parts: ReadonlyArray<StoppablePart | undefined>): Promise<void> {
  const failures: unknown[] = [];
  for (const part of parts) {
    try {
      await part?.stop();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, 'some parts of the simulator failed to stop');
}
