import type { Hex } from 'viem';
import { usdMicrosOf } from '../domain/money/usdValue';
import type { RequestStatus } from '../domain/request/requestStatus';
import { FastFillConflictError, FastFillRejectedError } from '../errors/fastFillErrors';
import { InvalidRequestBodyError, RequestNotFoundError } from '../errors/requestErrors';
import type { RequestStore } from '../store/RequestStore';
import type { FastFillOutcome } from './Solver';

export interface RequestFastFillParams {
  requestId: string;
  /** What the solver assumes was deposited (default: the quoted input). */
  solverInputCurrencyAmount?: bigint;
  /** Refuse when the fill is worth more than this, in micro-USD. */
  maxFillAmountUsdMicros?: bigint;
}

/**
 * SPEC §1.6 fast fill: the solver fills a waiting request now, before its deposit is indexed, as
 * if `solverInputCurrencyAmount` had been deposited. Resolves with the status once the fill is
 * mined; throws the API error that explains why it was not made.
 */
export async function requestFastFill(
  deps: { requests: RequestStore; solver: { fastFill(requestId: string, assumedInput: bigint): Promise<FastFillOutcome> } },
  params: RequestFastFillParams,
): Promise<{ requestId: Hex; status: RequestStatus }> {
  const record = deps.requests.get(params.requestId);
  if (!record) throw new RequestNotFoundError(params.requestId);
  if (params.maxFillAmountUsdMicros !== undefined && usdMicrosOf(record.quote.amounts.amountOut, record.quote.currencyOut) > params.maxFillAmountUsdMicros) {
    throw new FastFillRejectedError(`the fill is worth more than maxFillAmountUsd ${formatMicros(params.maxFillAmountUsdMicros)}`);
  }
  const assumed = params.solverInputCurrencyAmount ?? record.quote.amounts.amountIn;
  if (assumed === 0n) throw new InvalidRequestBodyError('Invalid request: solverInputCurrencyAmount must be greater than zero');
  const outcome = await deps.solver.fastFill(record.id, assumed);
  if (outcome.kind === 'not-waiting') throw new FastFillConflictError(record.id, outcome.status ?? 'unknown');
  if (outcome.kind === 'rejected') throw new FastFillRejectedError(`the fill would not be made: ${outcome.failReason}`);
  return { requestId: record.id, status: outcome.status };
}

function formatMicros(micros: bigint): string {
  const fraction = (micros % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${micros / 1_000_000n}${fraction ? `.${fraction}` : ''}`;
}
