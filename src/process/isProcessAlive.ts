import { readFileSync } from 'node:fs';

/**
 * Whether a process still runs. `kill(pid, 0)` also succeeds on a zombie (exited, not yet
 * reaped — orphans linger so in containers whose init reaps slowly), which runs nothing, so a
 * zombie or dead (`Z`/`X`) state in /proc counts as gone, as does a process that vanished.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}
