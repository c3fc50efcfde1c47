import type { ChainAdapter } from '../chains/ChainAdapter';
import { orientedReserves } from '../chains/orientedReserves';
import { routeOf, type RequestRecord } from '../domain/request/requestRecord';
import type { FailReason } from '../domain/request/requestStatus';
import { countDeposit } from '../domain/fill/depositAddressOutcome';
import { revalidateWithOptions } from '../domain/quoteOptions/revalidateAtFill';
import { fillPaymentFor } from '../domain/fill/fillPaymentFor';
import { revertedFillReason } from '../domain/fill/fillFailReason';
import type { SolverPayment } from '../domain/fill/solverPayment';
import type { ChainFailure } from '../domain/fill/chainFailure';

/** A refund because the simulated fill reverted carries the decoded revert (SPEC §2.4 details). */
export type FillPlan = { kind: 'fill'; payment: SolverPayment } | { kind: 'refund'; failReason: FailReason; failure?: ChainFailure };

/** Gas limit over the simulated gas of a fill with calls. */
const EXECUTION_GAS_MARGIN_PERCENT = 150n;

/**
 * What the solver does with a deposit of `deposited` (SPEC §1.4: quotes are revalidated when
 * filled): re-prices the route against the pool as it is now (`revalidateRouteQuote`), then, for
 * a fill that runs calls, simulates it on the destination first — a fill that would revert is
 * refunded instead of sent. A strict deposit address counts exactly the quoted input.
 */
export async function decideFill(record: RequestRecord, deposited: bigint, destination: ChainAdapter): Promise<FillPlan> {
  const { quote } = record;
  // a strict deposit address takes exactly the quoted input; the excess goes back in its own leg (§3)
  const counted = countDeposit(record, deposited);
  if (counted.kind === 'refund') return counted;
  const route = routeOf(quote);
  const decision = revalidateWithOptions(
    {
      tradeType: quote.tradeType,
      amounts: { ...quote.amounts, destinationAmountIn: route.destinationAmountIn },
      currencyIn: quote.currencyIn,
      currencyOut: quote.currencyOut,
      solverCurrency: route.solverCurrency,
      serviceFeeBps: quote.serviceFeeBps,
      quotedPool: route.quotedPool,
      poolNow: await orientedReserves(destination, route.action),
    },
    quote.options,
    counted.counted,
  );
  if (decision.kind === 'refund') return decision;
  const payment = fillPaymentFor({
    requestId: record.id,
    recipient: quote.recipient,
    currencyOut: quote.currencyOut,
    route,
    calls: quote.calls ?? [],
    amountOut: decision.amountOut,
    destinationAmountIn: decision.destinationAmountIn,
    minimumAmountOut: quote.amounts.minimumAmountOut,
    exactOutput: quote.tradeType === 'EXACT_OUTPUT',
    gasTopUp: quote.options?.gasTopUp?.amount ?? 0n,
  });
  if (!payment.execution) return { kind: 'fill', payment };
  const simulation = await destination.solverWallet.simulateFill(payment);
  if (!simulation.ok) return { kind: 'refund', failReason: revertedFillReason(record, simulation.failure), failure: simulation.failure };
  return { kind: 'fill', payment: { ...payment, execution: { ...payment.execution, gasLimit: (simulation.gasUnits * EXECUTION_GAS_MARGIN_PERCENT) / 100n } } };
}
