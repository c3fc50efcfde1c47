import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimulatorConfig } from '../config/simulatorConfig';

/** Where a simulator keeps its database and its chains' files. */
export interface SimulatorDataPaths {
  dataDir: string;
  dbPath: string;
  /** `--db`: requests and chain state survive a restart on the same file. */
  persistState: boolean;
  /** Removes the data directory when the start made a temporary one (neither `dbPath` nor `dataDir` given). */
  stop(): void;
}

export function resolveDataPaths(config: SimulatorConfig): SimulatorDataPaths {
  const temporaryDir = config.dbPath === undefined && config.dataDir === undefined ? mkdtempSync(join(tmpdir(), 'intentsim-')) : undefined;
  const dataDir = config.dataDir ?? temporaryDir ?? `${config.dbPath}.data`;
  return {
    dataDir,
    dbPath: config.dbPath ?? join(dataDir, 'intentsim.db'),
    persistState: config.dbPath !== undefined,
    stop: () => {
      if (temporaryDir) rmSync(temporaryDir, { recursive: true, force: true });
    },
  };
}
