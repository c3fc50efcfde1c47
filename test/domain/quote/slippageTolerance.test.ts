import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseBasisPoints } from '../../../src/domain/quote/slippageTolerance';

// covers: limit:slippageTolerance, latePaymentSlippageTolerance @ quote and price

/** The canonical decimal spelling of an integer 0..10000: no sign, no padding, no exponent. */
function isCanonicalInRange(value: string): boolean {
  if (!/^(0|[1-9][0-9]*)$/.test(value)) return false;
  return BigInt(value) <= 10_000n;
}

describe('parseBasisPoints', () => {
  it('accepts every integer 0..10000 written as a string and returns it as a bigint', () => {
    for (let bps = 0; bps <= 10_000; bps++) {
      expect(parseBasisPoints(String(bps))).toBe(BigInt(bps));
    }
  });

  it('accepts every integer 0..10000 (property form, with fast-check)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (bps) => {
        expect(parseBasisPoints(bps.toString())).toBe(BigInt(bps));
      }),
    );
  });

  it('rejects the examples of §7.1: negatives, decimals, exponents, padding, out of range', () => {
    for (const value of ['-1', '-0', '-10000', '1.5', '0.0', '50.', '.5', '1e3', '1E3', ' 5', '5 ', '05', '00', '+5', '10001', '99999', '100000', '0x10', 'abc', '', '５', '1_000']) {
      expect(parseBasisPoints(value), JSON.stringify(value)).toBeNull();
    }
  });

  it('rejects anything that is not a string, even a valid number', () => {
    for (const value of [0, 5, 50, 10_000, 5n, null, undefined, true, {}, [], ['50'], { value: '50' }]) {
      expect(parseBasisPoints(value), String(value)).toBeNull();
    }
  });

  it('rejects generated non-canonical or out-of-range strings', () => {
    const numericish = fc.string({
      unit: fc.constantFrom('0', '1', '5', '9', '-', '+', '.', 'e', 'E', ' ', 'x', '_', ','),
      maxLength: 8,
    });
    const padded = fc.integer({ min: 0, max: 10_000 }).chain((n) =>
      fc.constantFrom(`0${n}`, ` ${n}`, `${n} `, `+${n}`, `-${n === 0 ? 1 : n}`, `${n}.0`, `${n}e0`, `\t${n}`, `${n}\n`),
    );
    const outOfRange = fc.bigInt({ min: 10_001n, max: 10n ** 30n }).map(String);
    const anyString = fc.string();
    fc.assert(
      fc.property(fc.oneof(numericish, padded, outOfRange, anyString), (value) => {
        const result = parseBasisPoints(value);
        if (isCanonicalInRange(value)) expect(result).toBe(BigInt(value));
        else expect(result).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects generated non-string values', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer(), fc.double(), fc.bigInt(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.object(), fc.array(fc.string())),
        (value) => {
          expect(parseBasisPoints(value)).toBeNull();
        },
      ),
    );
  });
});
