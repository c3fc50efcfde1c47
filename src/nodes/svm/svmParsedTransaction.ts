import type { Address } from '@solana/kit';
import type { SvmTransactionRecord } from './SvmLedger';
import { parseSvmInstruction } from './svmParsedInstruction';

/** An account key as `jsonParsed` shows it. */
export interface SvmParsedAccountKey {
  pubkey: Address;
  signer: boolean;
  writable: boolean;
  source: 'transaction' | 'lookupTable';
}

/**
 * A kept transaction's `transaction` as `getTransaction(…, { encoding: "jsonParsed" })` answers it:
 * the account keys as `{ pubkey, signer, writable, source }` (the lookup tables' addresses after the
 * message's own, a key called as a program never writable), each instruction parsed where a
 * validator parses it, and `addressTableLookups` for a v0 message.
 */
export function parsedTransactionOf(record: SvmTransactionRecord) {
  const { message } = record.decoded;
  const keyAt = (index: number) => record.accountKeys[index]!;
  return {
    signatures: record.decoded.signatures,
    message: {
      accountKeys: parsedAccountKeys(record),
      recentBlockhash: message.lifetimeToken,
      instructions: message.instructions.map((instruction) =>
        parseSvmInstruction(keyAt(instruction.programAddressIndex), (instruction.accountIndices ?? []).map(keyAt), new Uint8Array(instruction.data ?? new Uint8Array())),
      ),
      ...(message.version === 0
        ? { addressTableLookups: (message.addressTableLookups ?? []).map((lookup) => ({ accountKey: lookup.lookupTableAddress, writableIndexes: lookup.writableIndexes, readonlyIndexes: lookup.readonlyIndexes })) }
        : {}),
    },
  };
}

/** Every account a kept transaction loaded, in the runtime's order, with whether it signed and whether it could be written. */
export function parsedAccountKeys(record: SvmTransactionRecord): SvmParsedAccountKey[] {
  const { message } = record.decoded;
  const header = message.header;
  const statics = message.staticAccounts;
  const programIndexes = new Set(message.instructions.map((instruction) => instruction.programAddressIndex));
  const writableStatic = (index: number) => {
    if (programIndexes.has(index)) return false;
    if (index < header.numSignerAccounts) return index < header.numSignerAccounts - header.numReadonlySignerAccounts;
    return index < statics.length - header.numReadonlyNonSignerAccounts;
  };
  const accountKeys: SvmParsedAccountKey[] = [
    ...statics.map((pubkey, index) => ({ pubkey, signer: index < header.numSignerAccounts, writable: writableStatic(index), source: 'transaction' as const })),
    ...record.loadedAddresses.writable.map((pubkey) => ({ pubkey, signer: false, writable: true, source: 'lookupTable' as const })),
    ...record.loadedAddresses.readonly.map((pubkey) => ({ pubkey, signer: false, writable: false, source: 'lookupTable' as const })),
  ];
  return accountKeys;
}
