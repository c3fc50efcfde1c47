import { amountObject } from '../money/amountObject';
import { routeOf, type QuoteFacts } from '../request/requestRecord';
import { formatPercent, formatUsd, usdMicrosOf } from '../money/usdValue';

/** The router a route's destination goes through: the pool, the wrapped-native contract, or the receiver. */
function destinationRouter(facts: QuoteFacts, serviceReceiver: string): string {
  const { action } = routeOf(facts);
  if (action.kind === 'swap') return action.pool;
  if (action.kind === 'wrap' || action.kind === 'unwrap') return action.wrappedNative;
  return serviceReceiver;
}

/**
 * SPEC §2.2 `details.swapImpact` and `details.route` from the route planned at quote time: the
 * swap impact is what the destination step loses in USD at fixture prices (the pool's fee and
 * price impact; zero for transfers, wraps and unwraps), the route names each side's input and
 * output currency and its router (depository on the origin; pool, wrapped native or receiver on
 * the destination).
 */
export function routeDetailsOf(facts: QuoteFacts, routers: { depository: string; serviceReceiver: string }) {
  const route = routeOf(facts);
  const { amounts, currencyIn, currencyOut } = facts;
  const usdSolverIn = usdMicrosOf(route.destinationAmountIn, route.solverCurrency);
  const swapUsd = route.action.kind === 'swap' ? usdMicrosOf(amounts.amountOut, currencyOut) - usdSolverIn : 0n;
  return {
    swapImpact: { usd: formatUsd(swapUsd), percent: formatPercent(swapUsd, usdSolverIn) },
    swapUsdMicros: swapUsd,
    route: {
      origin: {
        inputCurrency: amountObject(currencyIn, amounts.amountIn),
        outputCurrency: amountObject(currencyIn, amounts.amountIn),
        router: routers.depository,
      },
      destination: {
        inputCurrency: amountObject(route.solverCurrency, route.destinationAmountIn),
        outputCurrency: amountObject(currencyOut, amounts.amountOut, amounts.minimumAmountOut),
        router: destinationRouter(facts, routers.serviceReceiver),
      },
    },
  };
}
