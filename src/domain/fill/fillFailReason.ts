import type { RequestRecord } from '../request/requestRecord';
import type { FailReason } from '../request/requestStatus';

/** The fill ran out of the solver's own native or token balance (the solver is the only payer of a fill). */
export function isSolverBalanceShortfall(errorName: string | undefined): boolean {
  return errorName === 'InsufficientFunds' || errorName === 'InsufficientBalance';
}

/** The reason a fill that reverts (in simulation or on-chain) is recorded with (SPEC §7.2, §7.3). */
export function revertedFillReason(record: RequestRecord, errorName?: string): FailReason {
  if (isSolverBalanceShortfall(errorName)) return 'SOLVER_BALANCE_TOO_LOW';
  if (errorName === 'TooLittleReceived' || errorName === 'TooMuchRequested') return 'TOO_LITTLE_RECEIVED';
  if (errorName === 'AccountBlocked') return 'DESTINATION_TOKEN_TRANSFER_REJECTED';
  return record.quote.requestType === 'Same-chain Swap' ? 'TRANSACTION_REVERTED' : 'EXECUTION_REVERTED';
}
