import { getBase58Decoder, getBase58Encoder, type Address, type MaybeEncodedAccount } from '@solana/kit';
import { ChainError } from '../../errors/IntentsimError';
import type { SvmTransactionRecord } from './SvmLedger';
import { parseAccountData } from './svmParsedAccountData';
import { parsedTransactionOf } from './svmParsedTransaction';

/** A JSON-RPC error a validator answers with (code and message as Agave words them). */
export class SvmRpcError extends ChainError {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export type AccountEncoding = 'base64' | 'base58' | 'jsonParsed' | 'base64+zstd';

/** Agave's limit for base58 account data (`MAX_BASE58_BYTES`): larger accounts must be read as base64. */
const MAX_BASE58_BYTES = 128;

/** `dataSlice`: part of an account's data (binary encodings only). */
export interface AccountDataSlice {
  offset: number;
  length: number;
}

/** An account as `getAccountInfo` answers it (`null` when it does not exist). */
export function encodeAccount(account: MaybeEncodedAccount, encoding: AccountEncoding = 'base64', read: (address: Address) => MaybeEncodedAccount, dataSlice?: AccountDataSlice) {
  if (!account.exists) return null;
  const common = { executable: account.executable, lamports: account.lamports, owner: account.programAddress, rentEpoch: 18446744073709551615n, space: account.data.length };
  if (encoding === 'jsonParsed') {
    if (dataSlice) throw new SvmRpcError(-32602, 'Sliced account data can only be encoded using binary (base 58) or base64 encoding.');
    const parsed = parseAccountData(account, read);
    if (parsed) return { ...common, data: parsed };
  }
  const data = dataSlice ? account.data.subarray(dataSlice.offset, dataSlice.offset + dataSlice.length) : account.data;
  if (encoding === 'base58') {
    if (data.length > MAX_BASE58_BYTES) throw new SvmRpcError(-32600, `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`);
    return { ...common, data: [getBase58Decoder().decode(data), 'base58'] };
  }
  if (encoding === 'base64+zstd') throw new SvmRpcError(-32602, 'Invalid params: base64+zstd encoding is not supported by this simulator');
  return { ...common, data: [Buffer.from(data).toString('base64'), 'base64'] };
}

/** Decodes `sendTransaction` / `simulateTransaction` input (base58 is the RPC's default encoding). */
export function decodeWire(encoded: unknown, encoding: unknown): Uint8Array {
  if (typeof encoded !== 'string') throw new SvmRpcError(-32602, 'Invalid params: the transaction must be an encoded string');
  if (encoding === 'base64') return new Uint8Array(Buffer.from(encoded, 'base64'));
  if (encoding === undefined || encoding === 'base58') {
    try {
      return new Uint8Array(getBase58Encoder().encode(encoded));
    } catch {
      throw new SvmRpcError(-32602, 'Invalid params: invalid base58 encoding');
    }
  }
  throw new SvmRpcError(-32602, `Invalid params: unsupported encoding ${String(encoding)}`);
}

/** `getTransaction`'s answer for a kept transaction, with its transaction encoded as asked (`json` by default). */
export function encodeTransaction(record: SvmTransactionRecord, encoding: string, maxSupportedTransactionVersion: number | undefined) {
  const { message } = record.decoded;
  if (message.version === 0 && maxSupportedTransactionVersion === undefined) {
    throw new SvmRpcError(-32015, 'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0');
  }
  const base58 = getBase58Decoder();
  const meta = {
    err: record.err,
    status: record.err === null ? { Ok: null } : { Err: record.err },
    fee: record.fee,
    preBalances: record.preBalances,
    postBalances: record.postBalances,
    innerInstructions: [],
    logMessages: record.logs,
    preTokenBalances: record.preTokenBalances,
    postTokenBalances: record.postTokenBalances,
    rewards: [],
    loadedAddresses: record.loadedAddresses,
    computeUnitsConsumed: record.computeUnitsConsumed,
  };
  if (encoding === 'jsonParsed') return { slot: record.slot, blockTime: record.blockTime, meta: { ...meta, loadedAddresses: undefined }, transaction: parsedTransactionOf(record), version: message.version };
  const transaction =
    encoding === 'base64'
      ? [Buffer.from(record.wire).toString('base64'), 'base64']
      : encoding === 'base58'
        ? [base58.decode(record.wire), 'base58']
        : {
            signatures: record.decoded.signatures,
            message: {
              accountKeys: message.staticAccounts,
              header: {
                numRequiredSignatures: message.header.numSignerAccounts,
                numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
                numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
              },
              recentBlockhash: message.lifetimeToken,
              instructions: message.instructions.map((instruction) => ({
                programIdIndex: instruction.programAddressIndex,
                accounts: instruction.accountIndices ?? [],
                data: base58.decode(instruction.data ?? new Uint8Array()),
                stackHeight: null,
              })),
              ...(message.version === 0
                ? { addressTableLookups: (message.addressTableLookups ?? []).map((lookup) => ({ accountKey: lookup.lookupTableAddress, writableIndexes: lookup.writableIndexes, readonlyIndexes: lookup.readonlyIndexes })) }
                : {}),
            },
          };
  return { slot: record.slot, blockTime: record.blockTime, meta, transaction, version: message.version };
}

/**
 * JSON with u64 values (bigints) written as plain JSON numbers, exactly, as validators write them.
 * (Clients parse them as doubles or, like `@solana/kit`, as bigints.)
 */
export function stringifyRpcJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `__u64__${item}__` : item)).replace(/"__u64__(\d+)__"/g, '$1');
}
