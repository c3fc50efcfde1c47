import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseWithBigints, stringifyWithBigints } from '../../src/store/jsonWithBigints';

/** JSON-like values with bigints anywhere (no -0, no undefined: JSON cannot keep them). */
const { value: valueWithBigints } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.bigInt({ min: -(2n ** 200n), max: 2n ** 200n }),
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string().filter((key) => key !== '$bigint'), tie('value'), { maxKeys: 5 }),
  ),
}));

describe('stringifyWithBigints / parseWithBigints', () => {
  it('writes a bigint as {"$bigint":"…"}', () => {
    expect(stringifyWithBigints({ amount: 10n ** 20n, n: 1 })).toBe('{"amount":{"$bigint":"100000000000000000000"},"n":1}');
    expect(stringifyWithBigints(-5n)).toBe('{"$bigint":"-5"}');
  });

  it('reads bigints back at any depth, top level included', () => {
    expect(parseWithBigints('{"$bigint":"-5"}')).toBe(-5n);
    expect(parseWithBigints('{"a":[{"$bigint":"1"},{"b":{"$bigint":"2"}}]}')).toEqual({ a: [1n, { b: 2n }] });
  });

  it('keeps an own "__proto__" key a key (never the prototype), bigints inside it read back', () => {
    const parsed = parseWithBigints<Record<string, unknown>>('{"__proto__":{"polluted":{"$bigint":"7"}},"a":1}');
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__', 'a']);
    expect(Object.getOwnPropertyDescriptor(parsed, '__proto__')!.value).toEqual({ polluted: 7n });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('leaves objects with $bigint beside other keys alone', () => {
    expect(parseWithBigints('{"$bigint":"1","other":2}')).toEqual({ $bigint: '1', other: 2 });
  });

  it('round-trips any value, bigints kept exactly (property)', () => {
    fc.assert(
      fc.property(valueWithBigints, (value) => {
        expect(parseWithBigints(stringifyWithBigints(value))).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });

  it('a value without bigints is plain JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(stringifyWithBigints(value)).toBe(JSON.stringify(value));
      }),
    );
  });
});
