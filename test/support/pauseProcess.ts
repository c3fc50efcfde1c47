import { readdirSync, readFileSync } from 'node:fs';

/** The scheduler state letter of each thread of a process (`T`: stopped). */
function threadStates(pid: number): string[] {
  return readdirSync(`/proc/${pid}/task`).map((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8').split(') ')[1]!.charAt(0);
    } catch {
      return 'T'; // the thread is gone
    }
  });
}

/**
 * SIGSTOPs a process and resolves once every one of its threads is stopped. `kill` returns
 * before that: a thread running at that moment (on another CPU) can still read a request and
 * answer it, so a test that pauses a node to make it slow must wait for the stop to land.
 */
export async function pauseProcess(pid: number): Promise<void> {
  process.kill(pid, 'SIGSTOP');
  for (let tries = 0; tries < 1000; tries++) {
    if (threadStates(pid).every((state) => state === 'T' || state === 't')) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error(`process ${pid} did not stop`);
}

export function resumeProcess(pid: number): void {
  process.kill(pid, 'SIGCONT');
}
