import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Where the simulator keeps what one start can give the next (the derivations, the kept genesis): in the OS temp dir. */
export function keptAcrossStartsDir(): string {
  return join(tmpdir(), 'intentsim-cache');
}

/**
 * Writes `text` to `file` whole: into a temporary file beside it, then renamed into place, so a
 * process reading it at the same time (simulators or test workers side by side) sees all of it or
 * none. Its directory is made if missing; a failure throws.
 */
export function writeFileWhole(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}
