import { formatUnits } from 'viem';
import type { Currency } from '../chain/currency';

/** USD value of `amount` smallest units, in micro-USD, rounded down. */
export function usdMicrosOf(amount: bigint, currency: Pick<Currency, 'decimals' | 'priceUsdMicros'>): bigint {
  return (amount * currency.priceUsdMicros) / 10n ** BigInt(currency.decimals);
}

/** Converts an amount of one currency into another at fixture prices; rounding down or up. */
export function convertAmount(
  amount: bigint,
  from: Pick<Currency, 'decimals' | 'priceUsdMicros'>,
  to: Pick<Currency, 'decimals' | 'priceUsdMicros'>,
  rounding: 'down' | 'up',
): bigint {
  const numerator = amount * from.priceUsdMicros * 10n ** BigInt(to.decimals);
  const denominator = to.priceUsdMicros * 10n ** BigInt(from.decimals);
  if (denominator === 0n) throw new RangeError('cannot convert into a currency with no price');
  const quotient = numerator / denominator;
  return rounding === 'up' && quotient * denominator < numerator ? quotient + 1n : quotient;
}

/** Micro-USD as the decimal string the API shows (`"1.25"`, `"-0.000123"`). */
export function formatUsd(micros: bigint): string {
  return formatUnits(micros, 6);
}

/** A ratio as a percent string with two decimals (`"-0.05"`), rounded toward zero. */
export function formatPercent(numerator: bigint, denominator: bigint): string {
  if (denominator === 0n) return '0';
  return formatUnits((numerator * 10_000n) / denominator, 2);
}

/** Basis points as a percent string (`50` → `"0.5"`). */
export function formatBasisPointsAsPercent(bps: bigint): string {
  return formatUnits(bps, 2);
}
