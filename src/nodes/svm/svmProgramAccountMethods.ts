import { getBase58Encoder, type Address, type EncodedAccount, type MaybeEncodedAccount } from '@solana/kit';
import type { SvmLedger } from './SvmLedger';
import { encodeAccount, SvmRpcError, type AccountDataSlice, type AccountEncoding } from './svmRpcEncoding';
import { addressParam, configParam, u64Param, type SvmRpcMethod } from './svmRpcParams';
import { listedAccount, readMintDecimals, readTokenAccount, uiTokenAmount } from './svmTokenBalances';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from './svmProgramIds';

/** A validator's limits: at most 4 filters, memcmp bytes of at most 128 (decoded). */
const MAX_FILTERS = 4;
const MAX_MEMCMP_BYTES = 128;
/** `getTokenLargestAccounts` answers the 20 largest. */
const LARGEST_ACCOUNTS = 20;

/** One `getProgramAccounts` / `programSubscribe` filter, decoded: an account passes when it matches. */
export type SvmAccountFilter = (account: EncodedAccount) => boolean;

/** Decodes the `filters` of `getProgramAccounts` and `programSubscribe`: `dataSize`, `memcmp` (base58 or base64 bytes) and `tokenAccountState`. */
export function accountFiltersParam(value: unknown): SvmAccountFilter[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new SvmRpcError(-32602, 'Invalid params: filters must be an array');
  if (value.length > MAX_FILTERS) throw new SvmRpcError(-32602, `Too many filters provided; max ${MAX_FILTERS}`);
  return value.map((filter): SvmAccountFilter => {
    const spec = configParam(filter);
    if ('dataSize' in spec) {
      const size = u64Param(spec.dataSize, 'dataSize');
      return (account) => BigInt(account.data.length) === size;
    }
    if ('memcmp' in spec) {
      const memcmp = configParam(spec.memcmp);
      const offset = Number(u64Param(memcmp.offset, 'memcmp.offset'));
      const bytes = memcmpBytes(memcmp.bytes, memcmp.encoding);
      return (account) => offset + bytes.length <= account.data.length && bytes.every((byte, index) => account.data[offset + index] === byte);
    }
    if ('tokenAccountState' in spec) return (account) => readTokenAccount(listedAccount(account)) !== undefined;
    throw new SvmRpcError(-32602, `Invalid params: unknown filter ${JSON.stringify(filter)}`);
  });
}

function memcmpBytes(bytes: unknown, encoding: unknown): Uint8Array {
  if (typeof bytes !== 'string') throw new SvmRpcError(-32602, 'Invalid params: memcmp.bytes must be a string');
  let decoded: Uint8Array;
  if (encoding === 'base64') decoded = new Uint8Array(Buffer.from(bytes, 'base64'));
  else if (encoding === undefined || encoding === 'base58') {
    try {
      decoded = new Uint8Array(getBase58Encoder().encode(bytes));
    } catch {
      throw new SvmRpcError(-32602, 'Invalid params: memcmp.bytes is not base58');
    }
  } else throw new SvmRpcError(-32602, `Invalid params: unsupported memcmp encoding ${String(encoding)}`);
  if (decoded.length > MAX_MEMCMP_BYTES) throw new SvmRpcError(-32602, `Invalid params: memcmp.bytes longer than ${MAX_MEMCMP_BYTES} bytes`);
  return decoded;
}

/** `dataSlice` of a config, checked. */
export function dataSliceParam(value: unknown): AccountDataSlice | undefined {
  if (value === undefined || value === null) return undefined;
  const slice = configParam(value);
  return { offset: Number(u64Param(slice.offset, 'dataSlice.offset')), length: Number(u64Param(slice.length, 'dataSlice.length')) };
}

/**
 * What Anchor clients and indexers read by program and by mint: `getProgramAccounts` (filters,
 * every account encoding, `dataSlice`, `withContext`), `getTokenSupply` and `getTokenLargestAccounts`.
 */
export function svmProgramAccountMethods(ledger: SvmLedger): Record<string, SvmRpcMethod> {
  const withContext = (value: unknown) => ({ context: { slot: ledger.currentSlot(), apiVersion: '2.2.0' }, value });
  const read = (key: Address): MaybeEncodedAccount => ledger.account(key);
  const mintOf = (value: unknown) => {
    const mint = ledger.account(addressParam(value, 'mint'));
    const decimals = readMintDecimals(mint);
    const isMint = mint.exists && (mint.programAddress === TOKEN_PROGRAM || mint.programAddress === TOKEN_2022_PROGRAM) && !readTokenAccount(mint);
    if (!isMint || decimals === undefined) throw new SvmRpcError(-32602, 'Invalid param: not a Token mint');
    return { mint, decimals };
  };
  return {
    getProgramAccounts: ([program, config]) => {
      const programId = addressParam(program, 'program id');
      const options = configParam(config);
      const filters = accountFiltersParam(options.filters);
      const dataSlice = dataSliceParam(options.dataSlice);
      const encoding = (options.encoding as AccountEncoding | undefined) ?? 'base64';
      const matching = ledger.svm
        .getProgramAccounts(programId)
        .filter((account) => filters.every((filter) => filter(account)))
        .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
      const accounts = matching.map((account) => ({ pubkey: account.address, account: encodeAccount(listedAccount(account), encoding, read, dataSlice) }));
      return options.withContext === true ? withContext(accounts) : accounts;
    },
    getTokenSupply: ([mint]) => {
      const { mint: account, decimals } = mintOf(mint);
      const data = account.exists ? account.data : new Uint8Array();
      return withContext(uiTokenAmount(new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(36, true), decimals));
    },
    getTokenLargestAccounts: ([mint]) => {
      const { decimals } = mintOf(mint);
      const mintAddress = addressParam(mint, 'mint');
      const holders = [TOKEN_PROGRAM, TOKEN_2022_PROGRAM]
        .flatMap((program) => ledger.svm.getProgramAccounts(program))
        .flatMap((account) => {
          const token = readTokenAccount(listedAccount(account));
          return token && token.mint === mintAddress ? [{ address: account.address, amount: token.amount }] : [];
        })
        .sort((a, b) => (a.amount === b.amount ? (a.address < b.address ? -1 : 1) : a.amount > b.amount ? -1 : 1))
        .slice(0, LARGEST_ACCOUNTS);
      return withContext(holders.map((holder) => ({ address: holder.address, ...uiTokenAmount(holder.amount, decimals) })));
    },
  };
}
