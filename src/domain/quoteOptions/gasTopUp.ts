import type { PricedCurrency } from '../quote/quoteAmounts';
import { convertAmount } from '../money/usdValue';

/** SDK `topupGasAmount` default: $2, in micro-USD. */
export const DEFAULT_GAS_TOP_UP_USD_MICROS = 2_000_000n;

const MICRO_USD: PricedCurrency = { decimals: 6, priceUsdMicros: 1_000_000n };

/**
 * Gas top-up (SPEC §1.6): extra destination native currency delivered to the recipient with
 * the fill. `usdMicros` of value in the destination's native currency, rounded down; the user
 * pays for it as part of the execution fee.
 */
export function gasTopUpAmount(usdMicros: bigint, nativeCurrency: PricedCurrency): bigint {
  if (usdMicros <= 0n) return 0n;
  return convertAmount(usdMicros, MICRO_USD, nativeCurrency, 'down');
}

/** Micro-USD expressed in a currency (rounded down): the sponsorship cap in input units. */
export function usdMicrosIn(usdMicros: bigint, currency: PricedCurrency): bigint {
  return convertAmount(usdMicros, MICRO_USD, currency, 'down');
}
