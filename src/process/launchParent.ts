/**
 * The process that launched this one. bin/intentsim.js records it under this symbol in its first
 * line of JavaScript, before the CLI loads: a parent that goes away while the CLI loads or its
 * chains start is still told apart from init, which `process.ppid` shows from then on. Without a
 * record (the library, a test), the parent now.
 */
const RECORD = Symbol.for('intentsim.launchParent');

export function launchParent(): number {
  return (globalThis as Record<symbol, number | undefined>)[RECORD] ?? process.ppid;
}
