import { z } from 'zod';

/** The largest amount any EVM contract can hold or move. */
export const UINT256_MAX = 2n ** 256n - 1n;

/**
 * An amount at the JSON edge: a decimal integer string in the smallest unit, at most 2^256 − 1
 * (no chain can move more; SPEC §4.1 names no other bound). Anything else is a 400 here, before it
 * reaches pricing or a chain.
 */
export function uint256String(what = 'an integer string in the smallest unit') {
  const digits = /^[0-9]{1,78}$/;
  return (
    z
      .string()
      .regex(digits, `must be ${what}`)
      // zod runs every check: this one judges only what the regex let through
      .refine((value) => !digits.test(value) || BigInt(value) <= UINT256_MAX, { message: `must be ${what} below 2^256` })
  );
}
