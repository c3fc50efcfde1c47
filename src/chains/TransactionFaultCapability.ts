import type { ChainAdapter } from './ChainAdapter';

/** Which transactions the fault "drop transactions" drops: the solver's fills, users' deposits, or every one. */
export const DROP_TRANSACTION_TARGETS = ['fill', 'deposit', 'all'] as const;
export type DropTransactionTarget = (typeof DROP_TRANSACTION_TARGETS)[number];

/** A chain's fault "drop transactions", as `GET /admin/faults` lists it. */
export interface DropTransactionsFault {
  chainId: number;
  kind: 'drop-transactions';
  target: DropTransactionTarget;
}

/**
 * Faults of a chain's transactions (SPEC §7.2 TRANSACTION_NOT_INCLUDED), on the chains that
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
  /** Whether a transaction the chain dropped can no longer land (Solana: its blockhash is past `lastValidBlockHeight`). */
  hasExpired(txHash: string): Promise<boolean>;
}

/** Every chain's "drop transactions" fault, by chain id. */
export function listDropTransactionFaults(chains: Iterable<ChainAdapter>): DropTransactionsFault[] {
  const faults: DropTransactionsFault[] = [];
  for (const chain of chains) {
    const target = chain.transactionFaults?.droppedTarget() ?? null;
    if (target) faults.push({ chainId: chain.chainId, kind: 'drop-transactions', target });
  }
  return faults.sort((a, b) => a.chainId - b.chainId);
}
