import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Bumped when what an entry means changes; a file of another format is ignored. */
const FORMAT = 1;
/** A file that grew past this (many mnemonics or seeds) starts over. */
const MAX_ENTRIES = 20_000;

/**
 * Signatures the start makes on every run, kept across runs in one file: the Bitcoin chain's
 * genesis transactions and the EVM chains' deployment. secp256k1 signatures here are RFC 6979
 * (deterministic), so the same key and hash always give the same signature, and a cached one is
 * exactly what signing again would give — only without the pure-JavaScript curve arithmetic
 * (its first use builds tables for ~0.1 s) on the start path.
 *
 * Entries are keyed by sha256(scheme ‖ private key ‖ hash): the file holds no key. A file that is
 * unreadable, of another format or whose checksum does not match is ignored (and replaced at the
 * next save); writes go to a temporary file renamed into place, so simulators starting side by
 * side never read a half-written one.
 */
export class StartSignatureCache {
  private entries: Map<string, string> | undefined;
  private readonly added = new Map<string, string>();

  constructor(readonly file: string) {}

  /** The signature under `scheme` of `hash` by `privateKey`: the cached one, or `sign()`'s (then cached). */
  signature(scheme: string, privateKey: Uint8Array, hash: Uint8Array, sign: () => Uint8Array): Uint8Array {
    const key = entryKey(scheme, privateKey, hash);
    const cached = this.loaded().get(key);
    if (cached !== undefined) return Buffer.from(cached, 'hex');
    const signature = sign();
    this.remember(key, signature);
    return signature;
  }

  /** As `signature`, for a signer that answers asynchronously. */
  async signatureAsync(scheme: string, privateKey: Uint8Array, hash: Uint8Array, sign: () => Promise<Uint8Array>): Promise<Uint8Array> {
    const key = entryKey(scheme, privateKey, hash);
    const cached = this.loaded().get(key);
    if (cached !== undefined) return Buffer.from(cached, 'hex');
    const signature = await sign();
    this.remember(key, signature);
    return signature;
  }

  /** Writes the entries made since the last save, merged with what the file holds now; a failure to write is no failure of the start. */
  save(): void {
    if (this.added.size === 0) return;
    const merged = readEntries(this.file);
    if (merged.size + this.added.size > MAX_ENTRIES) merged.clear();
    for (const [key, value] of this.added) merged.set(key, value);
    this.added.clear();
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      const temporary = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temporary, serialize(merged));
      renameSync(temporary, this.file);
    } catch {
      // a read-only or full temp dir: the next start signs again
    }
  }

  private loaded(): Map<string, string> {
    return (this.entries ??= readEntries(this.file));
  }

  private remember(key: string, signature: Uint8Array): void {
    const hex = Buffer.from(signature).toString('hex');
    this.loaded().set(key, hex);
    this.added.set(key, hex);
  }
}

function entryKey(scheme: string, privateKey: Uint8Array, hash: Uint8Array): string {
  return createHash('sha256').update(scheme).update('\0').update(privateKey).update(hash).digest('hex');
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
export function defaultSignatureCacheFile(): string {
  return join(tmpdir(), 'intentsim-cache', `start-signatures-v${FORMAT}.json`);
}

let shared: StartSignatureCache | undefined;

/** The process's one cache (its file read once, at first use). */
export function startSignatureCache(): StartSignatureCache {
  return (shared ??= new StartSignatureCache(defaultSignatureCacheFile()));
}
