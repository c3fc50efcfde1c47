import type { ChainAdapter } from '../chains/ChainAdapter';
import type { Currency } from '../domain/chain/currency';
import { poolSpotPriceUsdMicros } from '../domain/money/poolSpotPrice';
import { UnsupportedCurrencyError } from '../errors/quoteErrors';

export interface TokenPrice {
  /** Micro-USD per whole unit. */
  priceUsdMicros: bigint;
  /** `pool`: the wrapped-native/stablecoin pool's reserves now; `fixture`: the price fixture. */
  source: 'pool' | 'fixture';
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The USD price of a currency on a chain. The native currency and its wrapped form are priced by
 * the chain's pool against its other token (whose price is the fixture's), so a pool moved by a
 * swap moves the price; every other currency (the stablecoin, the pool's numeraire) is priced by
 * the fixture.
 */
export async function readTokenPriceUsd(chain: ChainAdapter, address: string): Promise<TokenPrice> {
  const currency = chain.findCurrency(address);
  if (!currency) throw new UnsupportedCurrencyError(address, chain.chainId);
  const { wrappedNative, pools } = chain.liquidity();
  const asset: Currency = currency.isNative ? wrappedNative : currency;
  const pool = same(asset.address, wrappedNative.address) ? pools.find((p) => same(p.token0.address, asset.address) || same(p.token1.address, asset.address)) : undefined;
  if (!pool || !chain.readPoolReserves) return { priceUsdMicros: currency.priceUsdMicros, source: 'fixture' };
  const assetIsToken0 = same(pool.token0.address, asset.address);
  const counter = assetIsToken0 ? pool.token1 : pool.token0;
  const { reserve0, reserve1 } = await chain.readPoolReserves(pool.address);
  const reserves = assetIsToken0 ? { token: reserve0, counter: reserve1 } : { token: reserve1, counter: reserve0 };
  return { priceUsdMicros: poolSpotPriceUsdMicros(reserves, asset, counter), source: 'pool' };
}
