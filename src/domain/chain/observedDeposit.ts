import type { Address, Hex } from 'viem';
import type { TransactionEntry } from '../request/requestRecord';

/** Facts a chain's watcher observes about deposits, shared by the chain adapters, the solver and the stores. */

/** canonical: in the chain the node follows now; reorged: its block left the canonical chain. */
export type DepositState = 'canonical' | 'reorged';

/** A depository deposit, tagged with its request id, as the watcher indexed it. */
export interface IndexedDeposit {
  chainId: number;
  txHash: Hex;
  logIndex: number;
  requestId: Hex;
  depositor: Address;
  currency: Address;
  amount: bigint;
  blockNumber: number;
  blockHash: Hex;
  /** Unix seconds of the block, when the watcher saw it (not stored). */
  blockTimestamp?: number;
  state: DepositState;
}

/** The first payment seen into a deposit address. */
export interface DepositAddressPayment {
  depositor: Address;
  txHash: Hex;
  /** The currency paid (zero address = native). */
  currency: Address;
}

/**
 * The §2.3 `inTxs` entry of a deposit as the chain's index recorded it (no receipt read: the
 * depositor paid the gas, so the entry's fee is 0).
 */
export function indexedDepositEntry(deposit: IndexedDeposit, chainId: number, depository: Hex): TransactionEntry {
  return {
    txHash: deposit.txHash,
    chainId,
    type: 'deposit',
    fee: 0n,
    feeUsdMicros: 0n,
    block: deposit.blockNumber,
    blockHash: deposit.blockHash,
    timestamp: deposit.blockTimestamp ?? 0,
    status: 'success',
    data: { from: deposit.depositor, to: depository, currency: deposit.currency, amount: deposit.amount, logIndex: deposit.logIndex },
  };
}
