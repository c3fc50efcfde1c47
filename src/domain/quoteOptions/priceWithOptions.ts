import type { AppFeeEntry, AppFeeShare } from './appFees';
import { splitAppFees, totalAppFeeBps } from './appFees';
import { computeRouteQuote, deliveredFor, type RouteQuoteAmounts, type RouteQuoteInput, type RouteQuoteResult } from '../quote/routePricing';
import { resolveFeeSponsorship, type SponsorComponent, type SponsorshipResolution } from './feeSponsorship';
import { convertAmount } from '../money/usdValue';

const BPS = 10_000n;

export interface QuoteOptionsInput {
  appFees: readonly AppFeeEntry[];
  /** Fixed-rate spread in bps of the input; null = market (dynamic) rate. */
  fixedRateSpreadBps: bigint | null;
  /** Gas top-up, in the unit of `fillGasCost.currency` (the destination's native currency). */
  gasTopUp: bigint;
  sponsorship: { selected: readonly SponsorComponent[]; cap: bigint | null } | null;
}

export interface QuoteWithOptions {
  /** `amountIn` is what the user pays (after sponsorship); `relayerGas` includes the top-up. */
  amounts: RouteQuoteAmounts;
  appFees: AppFeeShare[];
  appFee: bigint;
  spread: bigint;
  sponsorship: SponsorshipResolution | null;
  sponsored: bigint;
}

export type QuoteWithOptionsResult = { ok: true; quote: QuoteWithOptions } | { ok: false; reason: Extract<RouteQuoteResult, { ok: false }>['reason'] | 'FEES_EXCEED_INPUT' };

/**
 * The fee and trade-type model of every route (`computeRouteQuote`) with the quote options layered on, all bigint:
 * - app fees and the fixed-rate spread are basis points of the input, charged with the service
 *   fee (one rounding for all bps fees, then split by bps, so the parts add up exactly);
 * - the gas top-up is a flat extra in the destination's native currency, charged with the fill gas;
 * - sponsorship then covers the selected buckets (execution, swap, platform, app, rent) up to
 *   its cap: EXACT_INPUT delivers more, output trade types charge the user less.
 * Invariant (no pool): amountIn + sponsored = value(amountOut) + relayer + app + spread, within rounding.
 */
export function computeQuoteWithOptions(base: RouteQuoteInput, options: QuoteOptionsInput): QuoteWithOptionsResult {
  const appBps = totalAppFeeBps(options.appFees);
  const spreadBps = options.fixedRateSpreadBps ?? 0n;
  const bpsTotal = base.serviceFeeBps + appBps + spreadBps;
  if (bpsTotal >= BPS) return { ok: false, reason: 'FEES_EXCEED_INPUT' };
  const result = computeRouteQuote({
    ...base,
    serviceFeeBps: bpsTotal,
    fillGasCost: { ...base.fillGasCost, amount: base.fillGasCost.amount + options.gasTopUp },
  });
  if (!result.ok) return result;

  const combined = result.amounts.relayerService;
  const appFee = bpsTotal === 0n ? 0n : (combined * appBps) / bpsTotal;
  const spread = bpsTotal === 0n ? 0n : (combined * spreadBps) / bpsTotal;
  const relayerService = combined - appFee - spread;
  const relayerGas = result.amounts.relayerGas;

  const sponsorship = options.sponsorship
    ? resolveFeeSponsorship({
        totals: { execution: relayerGas, swap: 0n, platform: relayerService, app: appFee, rent: 0n },
        selected: options.sponsorship.selected,
        cap: options.sponsorship.cap,
      })
    : null;
  const sponsored = sponsorship?.sponsoredTotal ?? 0n;

  let { amountIn, amountOut, destinationAmountIn } = result.amounts;
  if (base.tradeType === 'EXACT_INPUT') {
    if (sponsored > 0n) {
      destinationAmountIn = convertAmount(amountIn - relayerGas - combined + sponsored, base.currencyIn, base.solverCurrency, 'down');
      amountOut = deliveredFor(destinationAmountIn, base);
    }
  } else {
    amountIn -= sponsored;
  }
  const fixed = options.fixedRateSpreadBps !== null;
  const minimumAmountOut = base.tradeType === 'EXACT_OUTPUT' || fixed ? amountOut : (amountOut * (BPS - base.slippageBps)) / BPS;
  return {
    ok: true,
    quote: {
      amounts: { amountIn, amountOut, minimumAmountOut, relayerGas, relayerService, relayer: relayerGas + relayerService, destinationAmountIn },
      appFees: splitAppFees(appFee, options.appFees),
      appFee,
      spread,
      sponsorship,
      sponsored,
    },
  };
}
