/**
 * Process-wide safety net: every spawned child is listed here until it closes, so that nothing is
 * left running when this Node process exits. Signal handling (SIGINT/SIGTERM) belongs to the CLI,
 * which calls stopAllChildProcesses().
 */
export type LiveChildProcess = {
  stop: () => Promise<void>;
  signalOnParentExit: () => void;
};

const liveChildProcesses = new Set<LiveChildProcess>();
let parentExitHandlerInstalled = false;

export function registerLiveChildProcess(child: LiveChildProcess): void {
  if (!parentExitHandlerInstalled) {
    process.on('exit', signalLiveChildProcessesOnExit);
    parentExitHandlerInstalled = true;
  }
  liveChildProcesses.add(child);
}

export function unregisterLiveChildProcess(child: LiveChildProcess): void {
  liveChildProcesses.delete(child);
}

/** Runs synchronously inside `process.on('exit')`: no waiting is possible there, only signalling. */
function signalLiveChildProcessesOnExit(): void {
  for (const child of liveChildProcesses) {
    try {
      child.signalOnParentExit();
    } catch {
      // The child is already gone; nothing left to do while exiting.
    }
  }
}

/** Gracefully stops every child this process spawned and still runs; for the CLI's signal handlers. */
export async function stopAllChildProcesses(): Promise<void> {
  const results = await Promise.allSettled([...liveChildProcesses].map((child) => child.stop()));
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  if (failures.length > 0) {
    throw new AggregateError(failures, `${failures.length} child process(es) failed to stop`);
  }
}
