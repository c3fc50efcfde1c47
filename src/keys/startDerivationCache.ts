import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { keptAcrossStartsDir, writeFileWhole } from './keptFiles';

/** Bumped when what an entry means changes; a file of another format is ignored. */
const FORMAT = 1;
/** A file that grew past this (many mnemonics or seeds) starts over. */
const MAX_ENTRIES = 20_000;

/**
 * Values the start derives the same way on every run, kept across runs in one file: the
 * signatures of the Bitcoin chain's genesis transactions and of the EVM chains' deployment
 * (secp256k1 signatures here are RFC 6979, deterministic: the same key and hash always give the
 * same signature) and the Solana chain's genesis token-account addresses (program-derived). A
 * cached value is exactly what deriving it again gives — only without the pure-JavaScript curve
 * arithmetic (its first use builds tables for ~0.1 s) on the start path.
 *
 * Entries are keyed by sha256(scheme ‖ inputs…): the file holds no private key. A file that is
 * unreadable, of another format or whose checksum does not match is ignored (and replaced at the
 * next save); writes are whole (`writeFileWhole`), so simulators starting side by side never
 * read a half-written one.
 */
export class StartDerivationCache {
  private entries: Map<string, string> | undefined;
  private readonly added = new Map<string, string>();

  constructor(readonly file: string) {}

  /** The value `scheme` derives from `inputs` (e.g. a private key and a hash): the cached one, or `derive()`'s (then cached). */
  value(scheme: string, inputs: readonly Uint8Array[], derive: () => Uint8Array): Uint8Array {
    const key = entryKey(scheme, inputs);
    const cached = this.loaded().get(key);
    if (cached !== undefined) return Buffer.from(cached, 'hex');
    const value = derive();
    this.remember(key, value);
    return value;
  }

  /** As `value`, for a derivation that answers asynchronously. */
  async valueAsync(scheme: string, inputs: readonly Uint8Array[], derive: () => Promise<Uint8Array>): Promise<Uint8Array> {
    const key = entryKey(scheme, inputs);
    const cached = this.loaded().get(key);
    if (cached !== undefined) return Buffer.from(cached, 'hex');
    const value = await derive();
    this.remember(key, value);
    return value;
  }

  /** Writes the entries made since the last save, merged with what the file holds now; a failure to write is no failure of the start. */
  save(): void {
    if (this.added.size === 0) return;
    const merged = readEntries(this.file);
    if (merged.size + this.added.size > MAX_ENTRIES) merged.clear();
    for (const [key, value] of this.added) merged.set(key, value);
    this.added.clear();
    try {
      writeFileWhole(this.file, serialize(merged));
    } catch {
      // a read-only or full temp dir: the next start signs again
    }
  }

  private loaded(): Map<string, string> {
    return (this.entries ??= readEntries(this.file));
  }

  private remember(key: string, value: Uint8Array): void {
    const hex = Buffer.from(value).toString('hex');
    this.loaded().set(key, hex);
    this.added.set(key, hex);
  }
}

function entryKey(scheme: string, inputs: readonly Uint8Array[]): string {
  const hash = createHash('sha256').update(scheme);
  // each input's length first, so no two lists of inputs run together into the same bytes
  for (const input of inputs) hash.update(`\0${input.length}:`).update(input);
  return hash.digest('hex');
}

function checksumOf(entries: Record<string, string>): string {
  return createHash('sha256').update(JSON.stringify(entries)).digest('hex');
}

function serialize(entries: Map<string, string>): string {
  const record = Object.fromEntries(entries);
  return JSON.stringify({ format: FORMAT, checksum: checksumOf(record), entries: record });
}

/** The file's entries; none when it is missing, unreadable, of another format or fails its checksum. */
function readEntries(file: string): Map<string, string> {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown; checksum?: unknown; entries?: unknown };
    if (parsed.format !== FORMAT || typeof parsed.entries !== 'object' || parsed.entries === null) return new Map();
    const entries = parsed.entries as Record<string, unknown>;
    if (parsed.checksum !== checksumOf(entries as Record<string, string>)) return new Map();
    if (!Object.values(entries).every((value) => typeof value === 'string' && /^[0-9a-f]+$/.test(value))) return new Map();
    return new Map(Object.entries(entries as Record<string, string>));
  } catch {
    return new Map();
  }
}

/** Where the simulator keeps it: the OS temp dir (each start's data dir is usually new). */
export function defaultDerivationCacheFile(): string {
  return join(keptAcrossStartsDir(), `start-derivations-v${FORMAT}.json`);
}

let shared: StartDerivationCache | undefined;

/** The process's one cache (its file read once, at first use). */
export function startDerivationCache(): StartDerivationCache {
  return (shared ??= new StartDerivationCache(defaultDerivationCacheFile()));
}
