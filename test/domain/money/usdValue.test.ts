import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { convertAmount, formatBasisPointsAsPercent, formatPercent, formatUsd, usdMicrosOf } from '../../../src/domain/money/usdValue';

const ETH = { decimals: 18, priceUsdMicros: 3_000_000_000n };
const USDC = { decimals: 6, priceUsdMicros: 1_000_000n };
const POL = { decimals: 18, priceUsdMicros: 500_000n };

const currency = fc.record({
  decimals: fc.constantFrom(0, 6, 8, 9, 18),
  priceUsdMicros: fc.bigInt({ min: 1n, max: 100_000_000_000n }),
});

describe('usdMicrosOf', () => {
  it('values amounts at the fixture price, in micro-USD, rounded down', () => {
    expect(usdMicrosOf(10n ** 18n, ETH)).toBe(3_000_000_000n);
    expect(usdMicrosOf(25_000_000n, USDC)).toBe(25_000_000n);
    expect(usdMicrosOf(1n, ETH)).toBe(0n); // 3e-15 USD
    expect(usdMicrosOf(333_333_333_333n, ETH)).toBe(999n); // 0.000999999999999 USD
    expect(usdMicrosOf(3n * 10n ** 18n, POL)).toBe(1_500_000n);
    expect(usdMicrosOf(0n, ETH)).toBe(0n);
  });
});

describe('convertAmount', () => {
  it('converts between currencies of different decimals and prices', () => {
    expect(convertAmount(10n ** 18n, ETH, USDC, 'down')).toBe(3_000_000_000n);
    expect(convertAmount(3_000_000_000n, USDC, ETH, 'down')).toBe(10n ** 18n);
    expect(convertAmount(10n ** 18n, ETH, POL, 'down')).toBe(6_000n * 10n ** 18n);
    // 1 wei of ETH is 3e-9 USDC units: 0 rounded down, 1 rounded up
    expect(convertAmount(1n, ETH, USDC, 'down')).toBe(0n);
    expect(convertAmount(1n, ETH, USDC, 'up')).toBe(1n);
    // 1 USDC unit is 333333333.33 wei
    expect(convertAmount(1n, USDC, ETH, 'down')).toBe(333_333_333n);
    expect(convertAmount(1n, USDC, ETH, 'up')).toBe(333_333_334n);
  });

  it('is exact (up == down) when the conversion has no remainder', () => {
    expect(convertAmount(21_000_000_000_000n, ETH, ETH, 'up')).toBe(21_000_000_000_000n);
    expect(convertAmount(200_000_000_000_000n, ETH, USDC, 'up')).toBe(600_000n);
    expect(convertAmount(200_000_000_000_000n, ETH, USDC, 'down')).toBe(600_000n);
  });

  it('throws a RangeError for a target currency with no price', () => {
    expect(() => convertAmount(1n, ETH, { decimals: 6, priceUsdMicros: 0n }, 'down')).toThrow(RangeError);
  });

  it('down ≤ exact ≤ up, and up − down ≤ 1 (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), currency, currency, (amount, from, to) => {
        const down = convertAmount(amount, from, to, 'down');
        const up = convertAmount(amount, from, to, 'up');
        const numerator = amount * from.priceUsdMicros * 10n ** BigInt(to.decimals);
        const denominator = to.priceUsdMicros * 10n ** BigInt(from.decimals);
        expect(down * denominator).toBeLessThanOrEqual(numerator);
        expect(up * denominator).toBeGreaterThanOrEqual(numerator);
        expect(up - down).toBeGreaterThanOrEqual(0n);
        expect(up - down).toBeLessThanOrEqual(1n);
        expect(up === down).toBe(numerator % denominator === 0n);
      }),
      { numRuns: 500 },
    );
  });

  it('the same currency converts to itself unchanged (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), currency, (amount, c) => {
        expect(convertAmount(amount, c, c, 'down')).toBe(amount);
        expect(convertAmount(amount, c, c, 'up')).toBe(amount);
      }),
    );
  });
});

describe('formatting', () => {
  it('formatUsd shows micro-USD as a decimal string', () => {
    expect(formatUsd(1_250_000n)).toBe('1.25');
    expect(formatUsd(-123n)).toBe('-0.000123');
    expect(formatUsd(0n)).toBe('0');
    expect(formatUsd(3_000_000_000n)).toBe('3000');
  });

  it('formatPercent gives a percent with two decimals, rounded toward zero', () => {
    expect(formatPercent(-5n, 10_000n)).toBe('-0.05');
    expect(formatPercent(1n, 3n)).toBe('33.33');
    expect(formatPercent(-1n, 3n)).toBe('-33.33');
    expect(formatPercent(2n, 3n)).toBe('66.66');
    expect(formatPercent(1n, 1n)).toBe('100');
    expect(formatPercent(5n, 0n)).toBe('0');
  });

  it('formatBasisPointsAsPercent divides by 100', () => {
    expect(formatBasisPointsAsPercent(50n)).toBe('0.5');
    expect(formatBasisPointsAsPercent(0n)).toBe('0');
    expect(formatBasisPointsAsPercent(10_000n)).toBe('100');
    expect(formatBasisPointsAsPercent(1n)).toBe('0.01');
  });
});
