import type { RequestRecord } from '../request/requestRecord';
import type { FailReason } from '../request/requestStatus';
import type { ChainFailure } from './chainFailure';

/** The fill ran out of the solver's own native or token balance (the solver is the only payer of a fill). */
export function isSolverBalanceShortfall(errorName: string | undefined): boolean {
  return errorName === 'InsufficientFunds' || errorName === 'InsufficientBalance';
}

/**
 * The reason a fill that reverts (in simulation or on-chain) is recorded with (SPEC §7.2, §7.3):
 * the failReason the chain read its failure as (its table, `failReasonTable`), else
 * EXECUTION_REVERTED, or TRANSACTION_REVERTED for a same-chain swap. Without the failure (the trace
 * could not be read) only the fallback is left.
 */
export function revertedFillReason(record: RequestRecord, failure: ChainFailure | undefined): FailReason {
  const labelled = failure?.failReason;
  if (labelled !== undefined) return labelled;
  return record.quote.requestType === 'Same-chain Swap' ? 'TRANSACTION_REVERTED' : 'EXECUTION_REVERTED';
}
