import { isAddress, type Address } from '@solana/kit';
import type { SvmLedger } from './SvmLedger';
import { decodeWire } from './svmRpcEncoding';
import { configParam, type SvmRpcMethod } from './svmRpcParams';

/** A method's read-through before it answers: what of the chain it reads or uses (the params are checked by the method itself after). */
type ReadThrough = (ledger: SvmLedger, params: unknown[]) => Promise<void>;

const addressesIn = (values: unknown[]): Address[] => values.filter((value): value is Address => typeof value === 'string' && isAddress(value));
const accounts =
  (pick: (params: unknown[]) => unknown[]): ReadThrough =>
  (ledger, params) =>
    ledger.load(addressesIn(pick(params)));
const transaction: ReadThrough = async (ledger, [encoded, config]) => {
  let wire: Uint8Array;
  try {
    wire = decodeWire(encoded, configParam(config).encoding);
  } catch {
    return; // the method answers the bad encoding
  }
  await ledger.loadForTransaction(wire);
};

/**
 * What each method reads through to a fork's upstream first (SvmUpstreamAccounts): the accounts
 * it names, a transaction's accounts, an owner's token accounts. `surfnet_setTokenAccount` reads
 * its associated token account itself. Methods that list by program (`getProgramAccounts`,
 * `getTokenLargestAccounts`) and history (`getSignaturesForAddress`, `getTransaction`) read the
 * local chain only.
 */
const READ_THROUGH: Record<string, ReadThrough> = {
  getAccountInfo: accounts(([key]) => [key]),
  getBalance: accounts(([key]) => [key]),
  getMultipleAccounts: accounts(([keys]) => (Array.isArray(keys) && keys.length <= 100 ? keys : [])),
  getTokenAccountBalance: accounts(([key]) => [key]),
  getTokenSupply: accounts(([mint]) => [mint]),
  requestAirdrop: accounts(([key]) => [key]),
  surfnet_setAccount: accounts(([key]) => [key]),
  surfnet_setTokenAccount: accounts(([, mint]) => [mint]),
  getTokenAccountsByOwner: async (ledger, [owner, filter]) => {
    const by = configParam(filter);
    const [ownerAddress] = addressesIn([owner]);
    const [mint] = addressesIn([by.mint]);
    const [programId] = addressesIn([by.programId]);
    if (!ownerAddress || (!mint && !programId)) return;
    await ledger.loadTokenAccountsOf(ownerAddress, mint ? { mint } : { programId: programId! });
  },
  sendTransaction: transaction,
  simulateTransaction: transaction,
};

/** The node's methods, each reading through to the ledger's upstream first (a ledger without one answers as before). */
export function withReadThrough(ledger: SvmLedger, methods: Record<string, SvmRpcMethod>): Record<string, SvmRpcMethod> {
  return Object.fromEntries(
    Object.entries(methods).map(([name, method]) => {
      const readThrough = READ_THROUGH[name];
      if (!readThrough) return [name, method];
      return [name, async (params: unknown[]) => {
        if (ledger.upstreamUrl() !== undefined) await readThrough(ledger, params);
        return method(params);
      }];
    }),
  );
}
