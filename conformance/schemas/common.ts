import { z } from 'zod';

/** An amount in the smallest unit, as a string of digits (SPEC §2: amounts are integer strings). */
export const integerString = z.string().regex(/^\d+$/, 'an integer string');
/** A hex string with the 0x prefix. */
export const hexString = z.string().regex(/^0x[0-9a-fA-F]*$/, 'a 0x-prefixed hex string');
/** Unix milliseconds: after 2001-09-09 in milliseconds (a value in seconds would be ~1000 times smaller). */
export const unixMillis = z.number().int().gt(1_000_000_000_000, 'unix milliseconds (this looks like seconds)');
/** Unix seconds: before 2286 in seconds (a value in milliseconds would be ~1000 times larger). */
export const unixSeconds = z.number().int().nonnegative().lt(10_000_000_000, 'unix seconds (this looks like milliseconds)');
