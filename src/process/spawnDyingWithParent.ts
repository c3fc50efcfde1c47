import { executableFileProblem } from './resolveAnvilBinary';

/** Where util-linux puts `setpriv` (every Debian, Ubuntu, Fedora image; not busybox-only Alpine). No PATH is read. */
const SETPRIV_LOCATIONS = ['/usr/bin/setpriv', '/bin/setpriv'];

let setprivPath: string | null | undefined;

/** The `setpriv` binary, or undefined where there is none (looked up once). */
function setprivBinary(): string | undefined {
  if (setprivPath === undefined) setprivPath = SETPRIV_LOCATIONS.find((path) => executableFileProblem(path) === undefined) ?? null;
  return setprivPath ?? undefined;
}

export type DyingWithParentSpawn = {
  command: string;
  args: string[];
  /** False where this way is not available: the caller needs another guarantee (the orphan reaper). */
  diesWithParent: boolean;
};

/**
 * How to spawn `command` so that the kernel sends it `signal` the moment this process dies —
 * SIGKILL included, when no exit handler runs — at the cost of no process of its own:
 * `setpriv --pdeathsig` sets the child's parent-death signal (Linux `PR_SET_PDEATHSIG`) and then
 * execs the command in its place, so the child is the command itself (same pid, same name, a
 * child of this process). The signal follows the thread that spawned it: spawn from the main
 * thread (or accept that the child dies with its worker thread).
 *
 * Only an executable file path is wrapped, so that a missing command still fails the spawn
 * itself (ENOENT) rather than exiting 127 from setpriv.
 */
export function spawnDyingWithParent(command: string, args: readonly string[], signal: 'SIGKILL' | 'SIGTERM'): DyingWithParentSpawn {
  const setpriv = setprivBinary();
  if (setpriv === undefined || !command.includes('/') || executableFileProblem(command) !== undefined) {
    return { command, args: [...args], diesWithParent: false };
  }
  return { command: setpriv, args: ['--pdeathsig', signal, '--', command, ...args], diesWithParent: true };
}
