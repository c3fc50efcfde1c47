import type { Hex } from 'viem';
import type { Currency } from '../chain/currency';
import type { DestinationCall, QuoteRoute } from '../request/requestRecord';
import type { SolverPayment } from './solverPayment';

export interface FillPaymentParams {
  requestId: Hex;
  recipient: string;
  currencyOut: Currency;
  route: QuoteRoute;
  calls: DestinationCall[];
  amountOut: bigint;
  destinationAmountIn: bigint;
  minimumAmountOut: bigint;
  exactOutput: boolean;
  /** SPEC §1.6 gas top-up: destination native sent to the recipient with the fill. */
  gasTopUp?: bigint;
}

/**
 * The destination payment that fills a request: a plain transfer of `currencyOut` for bridges
 * and sends, else an execution that spends the solver's inventory through the route (wrap,
 * unwrap, pool swap) and the attached calls.
 */
export function fillPaymentFor(params: FillPaymentParams): SolverPayment {
  const payment: SolverPayment = { requestId: params.requestId, currency: params.currencyOut, recipient: params.recipient, amount: params.amountOut };
  const gasTopUp = params.gasTopUp ?? 0n;
  if (params.route.action.kind === 'transfer' && params.calls.length === 0 && gasTopUp === 0n) return payment;
  return {
    ...payment,
    execution: {
      action: params.route.action,
      solverCurrency: params.route.solverCurrency,
      solverAmount: params.destinationAmountIn,
      exactOutput: params.exactOutput,
      minimumAmountOut: params.minimumAmountOut,
      calls: params.calls,
      ...(gasTopUp > 0n ? { gasTopUp } : {}),
    },
  };
}
