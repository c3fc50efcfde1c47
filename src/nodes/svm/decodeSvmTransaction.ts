import {
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Address,
  type LegacyCompiledTransactionMessage,
  type V0CompiledTransactionMessage,
  type Transaction,
} from '@solana/kit';
import { ChainError } from '../../errors/IntentsimError';

/** The message forms validators run: legacy and v0. */
export type SvmCompiledMessage = (LegacyCompiledTransactionMessage | V0CompiledTransactionMessage) & { lifetimeToken: string };

/** A wire transaction taken apart: what the ledger, the RPC and the watcher read of it. */
export interface DecodedSvmTransaction {
  transaction: Transaction;
  message: SvmCompiledMessage;
  /** The first signature (the transaction's id), base58. */
  signature: string;
  signatures: string[];
}

export class SvmTransactionDecodeError extends ChainError {}

/** Decodes a serialized (wire) transaction; throws `SvmTransactionDecodeError` when it is not one. */
export function decodeSvmTransaction(wire: Uint8Array): DecodedSvmTransaction {
  try {
    const transaction = getTransactionDecoder().decode(wire);
    const compiled = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    if (compiled.version !== 'legacy' && compiled.version !== 0) throw new Error(`unsupported message version ${String(compiled.version)}`);
    const message = compiled as SvmCompiledMessage;
    const base58 = getBase58Decoder();
    const signatures = Object.values(transaction.signatures).map((bytes) => (bytes ? base58.decode(bytes) : '1'.repeat(64)));
    if (signatures.length === 0) throw new Error('no signatures');
    return { transaction, message, signature: signatures[0]!, signatures };
  } catch (error) {
    throw new SvmTransactionDecodeError(`failed to deserialize the transaction: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The first signature of a wire transaction (its id), base58, without decoding the rest: the
 * signature count is a compact-u16 (one byte below 128), then 64 bytes per signature.
 */
export function signatureOfWire(wire: Uint8Array): string {
  if (wire.length < 65 || wire[0] === 0 || wire[0]! >= 0x80) return decodeSvmTransaction(wire).signature;
  return getBase58Decoder().decode(wire.subarray(1, 65));
}

/** Static accounts, then the writable and the readonly ones loaded from lookup tables (the runtime's account order). */
export interface SvmAccountKeys {
  all: Address[];
  loaded: { writable: Address[]; readonly: Address[] };
}

/** Every account a message touches, reading its lookup tables with `readLookupTable`. */
export function svmAccountKeys(message: SvmCompiledMessage, readLookupTable: (table: Address) => readonly Address[] | undefined): SvmAccountKeys {
  const loaded = { writable: [] as Address[], readonly: [] as Address[] };
  const lookups = 'addressTableLookups' in message ? (message.addressTableLookups ?? []) : [];
  for (const lookup of lookups) {
    const table = readLookupTable(lookup.lookupTableAddress) ?? [];
    for (const index of lookup.writableIndexes) if (table[index]) loaded.writable.push(table[index]);
    for (const index of lookup.readonlyIndexes) if (table[index]) loaded.readonly.push(table[index]);
  }
  return { all: [...message.staticAccounts, ...loaded.writable, ...loaded.readonly], loaded };
}
