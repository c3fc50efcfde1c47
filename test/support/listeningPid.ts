import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * The id of this machine's process (of the given program name) listening on a TCP port of the
 * loopback, from /proc (Linux): for a test that pauses a pooled Anvil node, which it knows only by
 * its RPC URL. Undefined when no such process is found.
 */
export function listeningPid(port: number, programName: string): number | undefined {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // fields: sl, local address (hex ip:hex port), remote address, state (0A: LISTEN), …, inode (10th)
      if (fields.length < 10 || fields[3] !== '0A') continue;
      if (Number.parseInt(fields[1]!.split(':')[1]!, 16) === port) inodes.add(fields[9]!);
    }
  }
  if (inodes.size === 0) return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== programName) continue;
      for (const fd of readdirSync(`/proc/${entry}/fd`)) {
        const target = readlinkSync(`/proc/${entry}/fd/${fd}`);
        if (target.startsWith('socket:[') && inodes.has(target.slice(8, -1))) return Number(entry);
      }
    } catch {
      // gone, or not ours to read
    }
  }
  return undefined;
}
