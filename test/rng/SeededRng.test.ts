import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SeededRng } from '../../src/rng/SeededRng';

function sample(rng: SeededRng) {
  return {
    ints: Array.from({ length: 20 }, () => rng.int(0, 1_000_000)),
    bigints: Array.from({ length: 5 }, () => rng.bigint(0n, 2n ** 128n)),
    hex: rng.hex(32),
    chances: Array.from({ length: 20 }, () => rng.chance(0.5)),
  };
}

describe('SeededRng', () => {
  it('the same seed gives the same sequence', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        expect(sample(new SeededRng(seed))).toEqual(sample(new SeededRng(seed)));
      }),
      { numRuns: 50 },
    );
  });

  it('different seeds give different sequences', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), (a, b) => {
        fc.pre(a !== b);
        expect(sample(new SeededRng(a))).not.toEqual(sample(new SeededRng(b)));
      }),
      { numRuns: 50 },
    );
  });

  it('keeps its seed', () => {
    expect(new SeededRng(42).seed).toBe(42);
  });

  it('int and bigint stay within their inclusive bounds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 1000 }), (seed, min, span) => {
        const rng = new SeededRng(seed);
        for (let i = 0; i < 20; i++) {
          const n = rng.int(min, min + span);
          expect(Number.isInteger(n)).toBe(true);
          expect(n).toBeGreaterThanOrEqual(min);
          expect(n).toBeLessThanOrEqual(min + span);
          const b = rng.bigint(BigInt(min), BigInt(min + span));
          expect(b).toBeGreaterThanOrEqual(BigInt(min));
          expect(b).toBeLessThanOrEqual(BigInt(min + span));
        }
      }),
      { numRuns: 100 },
    );
  });

  it('int(min, min) is always min; every value of a small range occurs', () => {
    const rng = new SeededRng(3);
    expect(rng.int(7, 7)).toBe(7);
    const seen = new Set(Array.from({ length: 500 }, () => rng.int(1, 6)));
    expect([...seen].sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('hex(n) is 0x plus 2n lowercase hex digits', () => {
    const rng = new SeededRng(9);
    expect(rng.hex(0)).toBe('0x');
    expect(rng.hex(1)).toMatch(/^0x[0-9a-f]{2}$/);
    expect(rng.hex(32)).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('chance(0) is never true, chance(1) always; chance(0.5) gives both', () => {
    const rng = new SeededRng(5);
    const zeros = Array.from({ length: 200 }, () => rng.chance(0));
    const ones = Array.from({ length: 200 }, () => rng.chance(1));
    const halves = Array.from({ length: 200 }, () => rng.chance(0.5));
    expect(zeros.every((x) => x === false)).toBe(true);
    expect(ones.every((x) => x === true)).toBe(true);
    expect(halves).toContain(true);
    expect(halves).toContain(false);
  });
});
