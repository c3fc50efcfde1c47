import { formatUnits, type Hex } from 'viem';
import { amountObject } from '../money/amountObject';
import type { Currency } from '../chain/currency';
import type { ProtocolOrder } from './protocolOrder';
import type { QuoteFacts } from '../request/requestRecord';
import { routeDetailsOf } from './quoteDetails';
import { formatBasisPointsAsPercent, formatPercent, formatUsd, usdMicrosOf } from '../money/usdValue';
import type { QuoteStep } from './quoteStep';

export interface QuoteResponseInput {
  requestId: Hex;
  facts: QuoteFacts;
  steps: QuoteStep[];
  /** The user's deposit gas, in the origin's native currency. */
  depositGas: { amount: bigint; currency: Currency };
  userBalance: bigint;
  /** Contract addresses the route names (SPEC §2.2 `route.*.router`). */
  routers: { depository: string; serviceReceiver: string };
  /** SPEC §2.2 `protocol` (absent when the quote does not settle through the depository). */
  protocol?: { v2: ProtocolOrder & { orderSignature?: Hex } };
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
  const { swapImpact, swapUsdMicros, route } = routeDetailsOf(facts, input.routers);
  const options = facts.options;
  const usdApp = usdMicrosOf(options?.appFee ?? 0n, currencyIn);
  const usdSponsored = usdMicrosOf(options?.sponsored ?? 0n, currencyIn);
  const usdSpread = usdMicrosOf(options?.fixedRate?.spread ?? 0n, currencyIn);
  const fixedRate = options?.fixedRate != null;

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
      app: amountObject(currencyIn, options?.appFee ?? 0n),
      subsidized: amountObject(currencyIn, options?.sponsored ?? 0n),
    },
    details: {
      operation: facts.operation,
      sender: facts.user,
      recipient: facts.recipient,
      currencyIn: amountObject(currencyIn, amounts.amountIn),
      currencyOut: amountObject(currencyOut, amounts.amountOut, amounts.minimumAmountOut),
      refundCurrency: amountObject(currencyIn, amounts.amountIn),
      ...(options?.gasTopUp ? { currencyGasTopup: amountObject(options.gasTopUp.currency, options.gasTopUp.amount) } : {}),
      totalImpact: { usd: formatUsd(usdOut - usdIn), percent: formatPercent(usdOut - usdIn, usdIn) },
      swapImpact,
      expandedPriceImpact: {
        // a fixed rate's spread is part of what the rate costs
        swap: { usd: formatUsd(swapUsdMicros - usdSpread) },
        execution: { usd: formatUsd(-usdGas) },
        relay: { usd: formatUsd(-usdService) },
        app: { usd: formatUsd(-usdApp) },
        sponsored: { usd: formatUsd(usdSponsored) },
      },
      rate: rateOf(facts),
      slippageTolerance: {
        origin: { usd: '0', value: '0', percent: '0' },
        destination: {
          usd: formatUsd(usdMicrosOf(slippageValue, currencyOut)),
          value: slippageValue.toString(),
          percent: formatBasisPointsAsPercent(facts.tradeType === 'EXACT_OUTPUT' || fixedRate ? 0n : facts.slippageBps),
        },
      },
      timeEstimate: facts.timeEstimateSeconds,
      userBalance: input.userBalance.toString(),
      isFixedRate: fixedRate,
      ...(fixedRate ? { fixedRateFee: { usd: formatUsd(usdSpread) } } : {}),
      route,
    },
    ...(input.protocol ? { protocol: input.protocol } : {}),
  };
}

export type QuoteResponse = ReturnType<typeof buildQuoteResponse>;
