import type { Address, Hex } from 'viem';

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
