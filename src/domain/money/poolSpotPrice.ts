import type { Currency } from '../chain/currency';

/**
 * The USD price (micro-USD per whole unit) of `token` implied by a constant-product pool's
 * reserves against `counter`, whose USD price is known: counter per token × counter's price.
 * Rounded down; 0 when the pool holds none of `token`.
 */
export function poolSpotPriceUsdMicros(
  reserves: { token: bigint; counter: bigint },
  token: Pick<Currency, 'decimals'>,
  counter: Pick<Currency, 'decimals' | 'priceUsdMicros'>,
): bigint {
  if (reserves.token <= 0n) return 0n;
  return (reserves.counter * counter.priceUsdMicros * 10n ** BigInt(token.decimals)) / (reserves.token * 10n ** BigInt(counter.decimals));
}
