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

/** How long `POST /fast-fill` holds its answer for the fill's receipt, in the machine's time: a client is waiting. */
const FAST_FILL_ANSWER_WAIT_MS = 5_000;

/**
 * SPEC §1.6 fast fill: the solver fills a waiting request now, before its deposit is indexed, as
 * if `solverInputCurrencyAmount` had been deposited. Resolves with the status once the fill is
 * mined, or after FAST_FILL_ANSWER_WAIT_MS with the status then (`submitted`: the fill waits in a
 * pool that nothing mines yet; it settles later as any fill does); throws the API error that
 * explains why it was not made.
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
  const filling = deps.solver.fastFill(record.id, assumed);
  const outcome = await answerWithin(filling, FAST_FILL_ANSWER_WAIT_MS);
  // the fill was sent but its chain has not mined it yet (automine off, a held pool): answer with where the request is now
  if (outcome === undefined) return { requestId: record.id, status: deps.requests.get(record.id)?.status ?? 'pending' };
  if (outcome.kind === 'not-waiting') throw new FastFillConflictError(record.id, outcome.status ?? 'unknown');
  if (outcome.kind === 'rejected') throw new FastFillRejectedError(`the fill would not be made: ${outcome.failReason}`);
  return { requestId: record.id, status: outcome.status };
}

function formatMicros(micros: bigint): string {
  const fraction = (micros % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${micros / 1_000_000n}${fraction ? `.${fraction}` : ''}`;
}

/** The work's result, or `undefined` once `ms` of real time pass first (the work goes on). */
async function answerWithin<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work, waited]);
  } finally {
    clearTimeout(timer);
  }
}
