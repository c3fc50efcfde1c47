import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Unix socket paths are limited to 107 bytes; longer ones go to the temp directory. */
const MAX_IPC_PATH_BYTES = 100;
let ipcPathsInTmp = 0;

/** Where a spawned node serves IPC: in the data directory, or in the temp directory when that path is too long. */
export function ipcPathFor(dataDir: string, chainId: number): string {
  const inDataDir = join(dataDir, `anvil-${chainId}.ipc`);
  if (Buffer.byteLength(inDataDir) <= MAX_IPC_PATH_BYTES) return inDataDir;
  return join(tmpdir(), `intentsim-${process.pid}-${++ipcPathsInTmp}-${chainId}.ipc`);
}
