import { describe, expect, it } from 'vitest';
import { poolSpotPriceUsdMicros } from '../../../src/domain/money/poolSpotPrice';

describe('poolSpotPriceUsdMicros', () => {
  const weth = { decimals: 18 };
  const usdc = { decimals: 6, priceUsdMicros: 1_000_000n };
  it('is the counter reserve per token reserve at the counter price, across decimals', () => {
    expect(poolSpotPriceUsdMicros({ token: 10_000n * 10n ** 18n, counter: 30_000_000n * 10n ** 6n }, weth, usdc)).toBe(3_000_000_000n);
    expect(poolSpotPriceUsdMicros({ token: 20_000n * 10n ** 18n, counter: 30_000_000n * 10n ** 6n }, weth, usdc)).toBe(1_500_000_000n);
  });
  it('is 0 for an empty pool', () => {
    expect(poolSpotPriceUsdMicros({ token: 0n, counter: 5n }, weth, usdc)).toBe(0n);
  });
});
