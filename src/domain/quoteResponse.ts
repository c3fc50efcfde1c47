import { formatUnits, type Hex } from 'viem';
import type { QuoteStep } from '../chains/ChainAdapter';
import { amountObject } from './amountObject';
import type { Currency } from './currency';
import type { QuoteFacts } from './requestRecord';
import { routeDetailsOf } from './routeDetails';
import { formatBasisPointsAsPercent, formatPercent, formatUsd, usdMicrosOf } from './usdValue';

export interface QuoteResponseInput {
  requestId: Hex;
  facts: QuoteFacts;
  steps: QuoteStep[];
  /** The user's deposit gas, in the origin's native currency. */
  depositGas: { amount: bigint; currency: Currency };
  userBalance: bigint;
  /** Contract addresses the route names (SPEC §2.2 `route.*.router`). */
  routers: { depository: string; serviceReceiver: string };
}

/** The status path the official SDK polls (it rewrites `/intents/status` to `/v3`). */
export function statusCheckEndpoint(requestId: string): string {
  return `/intents/status?requestId=${requestId}`;
}

/** `rate`: output units per input unit, as a decimal string. */
function rateOf(facts: QuoteFacts): string {
  const { amountIn, amountOut } = facts.amounts;
  const scale = 18;
  const numerator = amountOut * 10n ** BigInt(facts.currencyIn.decimals + scale);
  const denominator = amountIn * 10n ** BigInt(facts.currencyOut.decimals);
  return formatUnits(numerator / denominator, scale);
}

/** SPEC §2.2: the whole quote response (steps, fees, details). Pure: no I/O. */
export function buildQuoteResponse(input: QuoteResponseInput) {
  const { facts, requestId } = input;
  const { amounts, currencyIn, currencyOut } = facts;
  const usdIn = usdMicrosOf(amounts.amountIn, currencyIn);
  const usdOut = usdMicrosOf(amounts.amountOut, currencyOut);
  const usdGas = usdMicrosOf(amounts.relayerGas, currencyIn);
  const usdService = usdMicrosOf(amounts.relayerService, currencyIn);
  const slippageValue = amounts.amountOut - amounts.minimumAmountOut;
  const { swapImpact, route } = routeDetailsOf(facts, input.routers);

  return {
    steps: input.steps.map((step) => ({
      id: step.id,
      action: step.action,
      description: step.description,
      kind: step.kind,
      requestId,
      depositAddress: step.depositAddress ?? '',
      items: step.items.map((item) => ({
        status: item.status,
        data: item.data,
        ...(item.withCheck ? { check: { endpoint: statusCheckEndpoint(requestId), method: 'GET' } } : {}),
      })),
    })),
    fees: {
      gas: amountObject(input.depositGas.currency, input.depositGas.amount),
      relayer: amountObject(currencyIn, amounts.relayer),
      relayerGas: amountObject(currencyIn, amounts.relayerGas),
      relayerService: amountObject(currencyIn, amounts.relayerService),
      app: amountObject(currencyIn, 0n),
      subsidized: amountObject(currencyIn, 0n),
    },
    details: {
      operation: facts.operation,
      sender: facts.user,
      recipient: facts.recipient,
      currencyIn: amountObject(currencyIn, amounts.amountIn),
      currencyOut: amountObject(currencyOut, amounts.amountOut, amounts.minimumAmountOut),
      refundCurrency: amountObject(currencyIn, amounts.amountIn),
      totalImpact: { usd: formatUsd(usdOut - usdIn), percent: formatPercent(usdOut - usdIn, usdIn) },
      swapImpact,
      expandedPriceImpact: {
        swap: { usd: swapImpact.usd },
        execution: { usd: formatUsd(-usdGas) },
        relay: { usd: formatUsd(-usdService) },
        app: { usd: '0' },
        sponsored: { usd: '0' },
      },
      rate: rateOf(facts),
      slippageTolerance: {
        origin: { usd: '0', value: '0', percent: '0' },
        destination: {
          usd: formatUsd(usdMicrosOf(slippageValue, currencyOut)),
          value: slippageValue.toString(),
          percent: formatBasisPointsAsPercent(facts.tradeType === 'EXACT_OUTPUT' ? 0n : facts.slippageBps),
        },
      },
      timeEstimate: facts.timeEstimateSeconds,
      userBalance: input.userBalance.toString(),
      isFixedRate: false,
      route,
    },
  };
}

export type QuoteResponse = ReturnType<typeof buildQuoteResponse>;
