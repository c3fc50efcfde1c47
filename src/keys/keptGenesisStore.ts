import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { keptAcrossStartsDir, writeFileWhole } from './keptFiles';

/** Bumped when what an entry holds changes; an entry of another format is ignored. */
const FORMAT = 1;
/** Entries kept at most (an EVM chain's is ~110 kB); past it, the least recently used go (each start with a new mnemonic adds some). */
const MAX_ENTRIES = 48;

/**
 * A chain's genesis as a start leaves it, kept across starts: the next start with the same key
 * loads it instead of building it again (an EVM chain's deployment: ~27 transactions and a dozen
 * gas estimates; docs/start.md, "What a start keeps"). One file per entry, named by its kind and
 * key; the key is a hash of everything that decides the genesis, so an entry is only ever read by
 * a start that would have built the same one.
 *
 * A missing, unreadable or corrupt entry (its checksum fails), or one written under another key
 * (a file copied or renamed), is no entry: the start builds the genesis and writes it again.
 * Writes are whole (`writeFileWhole`), so starts side by side never read half of one.
 */
export class KeptGenesisStore {
  constructor(readonly dir: string) {}

  /** The payload kept under `kind` and `key`, or undefined. */
  read(kind: string, key: string): string | undefined {
    try {
      const entry = JSON.parse(readFileSync(this.fileOf(kind, key), 'utf8')) as { format?: unknown; kind?: unknown; key?: unknown; checksum?: unknown; payload?: unknown };
      if (entry.format !== FORMAT || entry.kind !== kind || entry.key !== key || typeof entry.payload !== 'string') return undefined;
      if (entry.checksum !== checksumOf(kind, key, entry.payload)) return undefined;
      touch(this.fileOf(kind, key));
      return entry.payload;
    } catch {
      return undefined;
    }
  }

  /** Keeps `payload` under `kind` and `key`; a failure to write (read-only or full disk) is no failure of the start. */
  write(kind: string, key: string, payload: string): void {
    try {
      writeFileWhole(this.fileOf(kind, key), JSON.stringify({ format: FORMAT, kind, key, checksum: checksumOf(kind, key, payload), payload }));
      this.prune();
    } catch {
      // the next start builds the genesis again
    }
  }

  /** Removes the least recently used entries past MAX_ENTRIES (a read marks an entry used). */
  private prune(): void {
    const entries = readdirSync(this.dir).filter((name) => name.endsWith('.json'));
    if (entries.length <= MAX_ENTRIES) return;
    const byAge = entries.map((name) => ({ name, used: statSync(join(this.dir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 })).sort((a, b) => a.used - b.used);
    for (const { name } of byAge.slice(0, entries.length - MAX_ENTRIES)) rmSync(join(this.dir, name), { force: true });
  }

  fileOf(kind: string, key: string): string {
    return join(this.dir, `${kind}-${key}.json`);
  }
}

/** Marks an entry used now (its modification time), so pruning keeps it. */
function touch(file: string): void {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // a read-only store still serves its entries
  }
}

function checksumOf(kind: string, key: string, payload: string): string {
  return createHash('sha256').update(`${kind}\0${key}\0`).update(payload).digest('hex');
}

/** Names an entry: sha256 of the parts that decide the genesis, each given as text (JSON of plain values). */
export function keptGenesisKey(parts: Record<string, unknown>): string {
  return createHash('sha256')
    .update(JSON.stringify(parts, (_name, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value)))
    .digest('hex');
}

/** Where the simulator keeps them: beside the start's derivation cache, in the OS temp dir. */
export function defaultKeptGenesisDir(): string {
  return join(keptAcrossStartsDir(), `kept-genesis-v${FORMAT}`);
}

let shared: KeptGenesisStore | undefined;

/** The process's store in the default place. */
export function keptGenesisStore(): KeptGenesisStore {
  return (shared ??= new KeptGenesisStore(defaultKeptGenesisDir()));
}
