/**
 * SPEC §7.2 TRANSACTION_NOT_INCLUDED: "the fill was broadcast but not included onchain before the
 * retry and gas-bump window elapsed". A fill the destination chain does not know is looked at
 * `INCLUSION_CHECKS_PER_WINDOW` times per window (on the virtual clock): each time before the
 * window has elapsed since the first broadcast it is broadcast again with higher fees; once it
 * has, the request fails.
 */
export const INCLUSION_CHECKS_PER_WINDOW = 4;

/** Each re-broadcast raises both EIP-1559 fees by this much (a node replaces a pooled transaction from +10%). */
export const FEE_BUMP_PERCENT = 125n; // tenths of a percent: 12.5%

/** Milliseconds between two looks at a fill the chain has not seen. */
export function inclusionCheckIntervalMs(windowSeconds: number): number {
  return Math.max(1, Math.floor((windowSeconds * 1000) / INCLUSION_CHECKS_PER_WINDOW));
}

/** What to do with a fill still not seen by the chain: send it again, or give up (TRANSACTION_NOT_INCLUDED). */
export function unseenFillStep(params: { firstBroadcastAtMs: number; nowMs: number; windowSeconds: number }): 'rebroadcast' | 'give-up' {
  return params.nowMs - params.firstBroadcastAtMs >= params.windowSeconds * 1000 ? 'give-up' : 'rebroadcast';
}

/** A fee after `bumps` re-broadcasts: +12.5% each time, rounded up, so every bump really raises it. */
export function bumpedFee(fee: bigint, bumps: number): bigint {
  let bumped = fee;
  for (let i = 0; i < bumps; i++) bumped = (bumped * (1000n + FEE_BUMP_PERCENT) + 999n) / 1000n;
  return bumped;
}
