import { readFileSync } from 'node:fs';
import { isProcessAlive } from './isProcessAlive';
import { launchParent } from './launchParent';

/** The parent pid of `pid` from /proc (Linux); undefined when it cannot be read. */
function parentOf(pid: number): number | undefined {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ..." — comm may hold spaces, so read after the last ')'
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) && ppid > 0 ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** This process's parent (`from`, by default the one it has now), grandparent, …, `levels` deep, stopping before pid 1. */
export function ancestorsOfThisProcess(levels: number, from: number = process.ppid): number[] {
  const chain: number[] = [];
  let pid: number | undefined = from;
  while (pid !== undefined && pid > 1 && chain.length < levels) {
    chain.push(pid);
    pid = parentOf(pid);
  }
  return chain;
}

/**
 * Calls `onGone` once when whatever started this process goes away: the parent (its pid changes
 * when it dies) or an ancestor a few levels up — `npx` starts the CLI through `sh -c`, and a
 * SIGINT sent to npx is not passed on, so the simulator would otherwise run on with its chains.
 * The parent is the one this process was launched by, so one gone already (while the CLI loaded or
 * the chains started) is noticed at the first poll. Polls on a real timer (process supervision is
 * real time, ARCHITECTURE.md); returns a stop function.
 */
export function watchAncestors(onGone: (why: string) => void, options: { levels?: number; intervalMs?: number } = {}): () => void {
  // the parent at launch (src/process/launchParent.ts): one gone before this call is noticed too
  const parent = launchParent();
  const ancestors = ancestorsOfThisProcess(options.levels ?? 3, parent);
  const check = () => {
    const goneAncestor = ancestors.find((pid) => !isProcessAlive(pid));
    const why =
      process.ppid !== parent
        ? `the parent process ${parent} is gone`
        : goneAncestor !== undefined
          ? `the process that started it (${goneAncestor}) is gone`
          : undefined;
    if (why === undefined || stopped) return;
    stop();
    onGone(why);
  };
  let stopped = false;
  const timer = setInterval(check, options.intervalMs ?? 500);
  timer.unref();
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  // a parent gone already is noticed now, not a poll later
  setImmediate(check).unref();
  return stop;
}
