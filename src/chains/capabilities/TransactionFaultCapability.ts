import type { DropTransactionTarget } from '../../domain/chain/dropTransactionTargets';

/**
 * Faults of a chain's transactions (SPEC §7.2 TRANSACTION_NOT_INCLUDED), a cheat of the chains that
 * simulate them (the embedded Solana ledger); absent on the others.
 */
export interface TransactionFaultCapability {
  /**
   * From now on the chain's RPC answers a transaction of `target` with its signature and never
   * mines it (a congested leader dropping it); `null` stops dropping.
   */
  dropTransactions(target: DropTransactionTarget | null): void;
  /** What is dropped now (`null`: nothing). */
  droppedTarget(): DropTransactionTarget | null;
}
