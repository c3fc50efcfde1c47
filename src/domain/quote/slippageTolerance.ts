/**
 * SPEC §4.1, §7.1, §8: `slippageTolerance` and `latePaymentSlippageTolerance` are integer
 * strings of basis points from 0 to 10000. Anything else (negative, decimal, exponent, padding,
 * non-string) is rejected. Returns the bps as a bigint, or null when the string is not valid.
 */
export function parseBasisPoints(value: unknown): bigint | null {
  if (typeof value !== 'string') return null;
  if (!/^(0|[1-9][0-9]{0,4})$/.test(value)) return null;
  const bps = BigInt(value);
  return bps <= 10_000n ? bps : null;
}
