import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UINT256_MAX, uint256String } from '../../../src/domain/money/uint256String';

describe('uint256String (amounts at the JSON edge)', () => {
  const schema = uint256String();
  it('accepts 0 … 2^256 − 1 and nothing above', () => {
    expect(schema.safeParse('0').success).toBe(true);
    expect(schema.safeParse(UINT256_MAX.toString()).success).toBe(true);
    expect(schema.safeParse((UINT256_MAX + 1n).toString()).success).toBe(false);
    expect(schema.safeParse('9'.repeat(79)).success).toBe(false);
  });

  it('never throws, whatever the string (zod runs the bound check even after the pattern failed)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom('1e18', '-1', ' 1', '0x10', '1.5', '')), (text) => {
        const result = schema.safeParse(text);
        expect(result.success).toBe(/^[0-9]{1,78}$/.test(text) && BigInt(text) <= UINT256_MAX);
      }),
      { numRuns: 500 },
    );
  });
});
