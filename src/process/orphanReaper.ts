import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The fallback where `setpriv` is missing (spawnDyingWithParent.ts): a separate Node process
 * (~40 MB) does what the kernel's parent-death signal does for free. Started only by the first
 * child that needs it.
 *
 * The reaper's own source, run with `node -e` (no file to find inside a bundle). It reads
 * `add <pid>` / `remove <pid>` lines from its stdin, a pipe from the simulator's process. When that
 * pipe ends — the simulator's process is gone, however it died, SIGKILL included — it sends SIGTERM
 * to every pid still listed (Anvil writes its state on a graceful exit), SIGKILL after 3 s, and
 * exits. A pid is signalled only while /proc says it is still the same program.
 */
const REAPER_SOURCE = String.raw`
const { readFileSync } = require('node:fs');
const watched = new Map();
let pending = '';
const programOf = (pid) => { try { return readFileSync('/proc/' + pid + '/cmdline', 'utf8').split('\0')[0]; } catch { return undefined; } };
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  let end;
  while ((end = pending.indexOf('\n')) >= 0) {
    const [op, text] = pending.slice(0, end).split(' ');
    pending = pending.slice(end + 1);
    const pid = Number(text);
    if (op === 'add') watched.set(pid, programOf(pid)); else watched.delete(pid);
  }
});
process.stdin.on('end', () => {
  const alive = () => [...watched].filter(([pid, program]) => program !== undefined && programOf(pid) === program);
  const signal = (name) => alive().forEach(([pid]) => { try { process.kill(pid, name); } catch {} });
  signal('SIGTERM');
  const started = Date.now();
  const check = setInterval(() => {
    if (alive().length === 0) process.exit(0);
    if (Date.now() - started > 3000) { signal('SIGKILL'); process.exit(0); }
  }, 50);
});
`;

let reaper: ChildProcess | undefined;

function startReaper(): ChildProcess | undefined {
  if (reaper) return reaper;
  try {
    // its own process group: a signal to the simulator's group does not reach it
    const child = spawn(process.execPath, ['-e', REAPER_SOURCE], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    child.on('error', () => (reaper = undefined));
    child.stdin?.on('error', () => undefined);
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    reaper = child;
  } catch {
    reaper = undefined; // best effort: the graceful paths still stop every child
  }
  return reaper;
}

/** Makes sure `pid` dies with this process, even when this process is killed with SIGKILL. */
export function reapWhenThisProcessDies(pid: number): void {
  startReaper()?.stdin?.write(`add ${pid}\n`);
}

/** `pid` has exited (or was stopped by us): nothing to reap any more. */
export function stopReaping(pid: number): void {
  reaper?.stdin?.write(`remove ${pid}\n`);
}

/** The reaper's pid (tests check it is not left behind). */
export function orphanReaperPid(): number | undefined {
  return reaper?.pid;
}
