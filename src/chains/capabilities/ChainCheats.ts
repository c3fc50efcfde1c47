/**
 * A chain's cheat calls (scenarios, tests, the admin control plane), apart from what the service
 * needs of a chain, as Anvil's `anvil_*` / `evm_*` and Surfpool's `surfnet_*` methods stand apart
 * from the node's own API. Every chain here has the five required ones (a ledger without a node
 * implements them in-process); the optional ones are present only where the chain has them, and
 * `requireCheat` answers `UNSUPPORTED_ON_CHAIN` for the others.
 */
import type { DoubleSpendCapability } from './DoubleSpendCapability';
import type { ExchangeAccountControls } from './ExchangeAccountControls';
import type { TransactionFaultCapability } from './TransactionFaultCapability';

export interface ChainCheats {
  /** Mines `blocks` blocks now (default 1). */
  mine(blocks?: number): Promise<void>;
  /** Whether a transaction waits in the node's pool, not yet mined (held while automine is off). */
  isPending(txHash: string): Promise<boolean>;
  /** Mines a block every `seconds` (0: off). */
  setIntervalMining(seconds: number): Promise<void>;
  /** The next block's timestamp, unix seconds. */
  setNextBlockTimestamp(unixSeconds: number): Promise<void>;
  /** Moves block time forward (`advanceTime` moves the virtual clock right after). */
  increaseTime(seconds: number): Promise<void>;
  /** Mine each transaction as it arrives (on), or only on `mine` / the interval (off). */
  setAutomine?(enabled: boolean): Promise<void>;
  /** Replaces the code at `address` (a contract that starts reverting, or loses its code). */
  setCode?(address: string, code: string): Promise<void>;
  /** Saves the ledger's state; `revert(id)` returns to it. */
  snapshot?(): Promise<string>;
  revert?(snapshotId: string): Promise<void>;
  /**
   * For a world revert: from now until the returned `resume` is called, the chain's watcher indexes
   * nothing (what it would read is the world left behind, and the revert puts back the index);
   * resolves once what it is indexing now is written. After `resume` it indexes again (`syncNow`
   * reads the chain as the revert left it). A chain without it is indexed only when asked.
   */
  pauseWatching?(): Promise<() => void>;
  /**
   * For a world snapshot: how the chain makes blocks now (automine, interval mining, the next
   * block's due time), as a function that makes them so again — a world revert calls it once the
   * chain holds nothing of the world left behind, before the solver sends anything again. A chain
   * whose block making never changes has none.
   */
  captureMining?(): Promise<() => Promise<void>>;
  /**
   * For a world revert: users' calls that would change the chain (sent to the URL the simulator
   * hands out) wait from now until the returned function is called; resolves once those already
   * on their way are answered. A chain users reach without such a front has none.
   */
  holdUserCalls?(): Promise<() => void>;
  /** Replaces the last `depth` blocks with new empty ones; their transactions leave the canonical chain. */
  reorg?(depth: number): Promise<void>;
  /** An exchange's account faults (pause an account, revoke its key, set its collateral): the exchange chain only. */
  readonly exchangeAccounts?: ExchangeAccountControls;
  /** A user double-spending a deposit (Bitcoin-style chains: replace-by-fee, or in a reorg's replacing branch). */
  readonly doubleSpends?: DoubleSpendCapability;
  /** Dropped and expiring transactions (the admin fault `drop-transactions`): the embedded Solana ledger only. */
  readonly transactionFaults?: TransactionFaultCapability;
}

/** The cheat calls a chain may lack. */
export type OptionalCheatName = 'setAutomine' | 'setCode' | 'snapshot' | 'revert' | 'reorg';
