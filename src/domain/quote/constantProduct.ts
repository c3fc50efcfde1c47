/**
 * Constant-product (x·y = k) pool math with a fee in basis points of the input, exactly as
 * `fixtures/contracts/ConstantProductPool.sol` computes it (all bigint, smallest units).
 */
const BPS = 10_000n;

/** Output for `amountIn` (rounded down), the fee taken from the input. */
export function getAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, feeBps: bigint): bigint {
  if (amountIn <= 0n || reserveIn <= 0n || reserveOut <= 0n) return 0n;
  const amountInWithFee = amountIn * (BPS - feeBps);
  return (amountInWithFee * reserveOut) / (reserveIn * BPS + amountInWithFee);
}

/**
 * The least input that yields at least `amountOut` (rounded up), or null when the pool cannot
 * give that much (amountOut ≥ reserveOut).
 */
export function getAmountIn(amountOut: bigint, reserveIn: bigint, reserveOut: bigint, feeBps: bigint): bigint | null {
  if (amountOut <= 0n) return 0n;
  if (reserveIn <= 0n || amountOut >= reserveOut) return null;
  const numerator = reserveIn * amountOut * BPS;
  const denominator = (reserveOut - amountOut) * (BPS - feeBps);
  return numerator / denominator + 1n;
}
