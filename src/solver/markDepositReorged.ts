import type { Hex } from 'viem';
import type { ChainAdapter } from '../chains/ChainAdapter';
import type { IndexedDeposit } from '../domain/chain/observedDeposit';
import { recordRequestFacts, transitionRequest, type RequestFacts, type RequestLifecycle } from '../lifecycle/transitionRequest';
import { recordHoldingDeposit } from './requestDeposits';

/**
 * A deposit reorged out of `chain`: its `inTxs` entry is marked failed with the reorg's facts; a
 * request that had moved on it (pending, submitted or success) ends in `failure` with
 * DEPOSIT_REORGED — DOUBLE_SPEND when `conflictingTxHash`, a transaction spending the same inputs,
 * took its place (docs/divergences.md) — any other keeps its status. A fill already paid stays in
 * `outTxs` (`metadata.reorg.action: fill`).
 */
export function markDepositReorged(lifecycle: RequestLifecycle, chain: ChainAdapter, deposit: IndexedDeposit, detectedAt: number, conflictingTxHash?: string): void {
  const failReason = conflictingTxHash ? ('DOUBLE_SPEND' as const) : ('DEPOSIT_REORGED' as const);
  const { requests } = lifecycle;
  const record = recordHoldingDeposit(requests, requests.get(deposit.requestId), deposit);
  if (!record) return;
  const markReorged = (r: RequestFacts) => {
    r.inTxs = r.inTxs.map((tx) =>
      tx.txHash === deposit.txHash
        ? {
            ...tx,
            status: 'failure' as const,
            metadata: {
              reorg: {
                detectedAt,
                source: `chain-${chain.chainId}-block-hash-watcher`,
                reason: conflictingTxHash ? `deposit inputs spent by conflicting transaction ${conflictingTxHash}` : 'deposit transaction is no longer in the canonical chain',
                blockNumber: deposit.blockNumber,
                blockHash: deposit.blockHash as Hex,
                failReason,
                ...(r.outTxs.some((o) => o.type === 'fill') ? { action: 'fill' as const } : {}),
              },
            },
          }
        : tx,
    );
  };
  if (record.status === 'pending' || record.status === 'submitted' || record.status === 'success') {
    transitionRequest(lifecycle, {
      requestId: record.id,
      to: 'failure',
      update: (r) => {
        markReorged(r);
        r.failReason = failReason;
      },
    });
  } else {
    recordRequestFacts(lifecycle, record.id, markReorged);
  }
}
