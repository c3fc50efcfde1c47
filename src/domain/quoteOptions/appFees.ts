/**
 * SPEC §1.6, §2.3 `data.appFees`: app fees are basis points of the input, added to what the
 * user pays and collected in the stablecoin. Pure bigint math, no I/O.
 */
export interface AppFeeEntry {
  recipient: string;
  bps: bigint;
}

export interface AppFeeShare extends AppFeeEntry {
  /** This recipient's share, in the unit of the total that was split. */
  amount: bigint;
}

/** Sum of the entries' basis points. */
export function totalAppFeeBps(entries: readonly AppFeeEntry[]): bigint {
  return entries.reduce((sum, entry) => sum + entry.bps, 0n);
}

/**
 * Splits `total` between the entries in proportion to their bps, rounding down; the last entry
 * with a non-zero bps takes the remainder, so the shares always add up to `total` exactly.
 */
export function splitAppFees(total: bigint, entries: readonly AppFeeEntry[]): AppFeeShare[] {
  const bps = totalAppFeeBps(entries);
  if (bps === 0n || total === 0n) return entries.map((entry) => ({ ...entry, amount: 0n }));
  let lastPaying = -1;
  entries.forEach((entry, index) => {
    if (entry.bps > 0n) lastPaying = index;
  });
  let given = 0n;
  return entries.map((entry, index) => {
    const amount = index === lastPaying ? total - given : (total * entry.bps) / bps;
    given += amount;
    return { ...entry, amount };
  });
}

/**
 * App fees actually collected at fill (SPEC §2.3 `appFees.actual`): the quoted shares when the
 * fill paid the quoted output, else the quoted shares scaled to what was filled (rounded down).
 */
export function actualAppFees(quoted: readonly AppFeeShare[], quotedOutput: bigint, filled: bigint): AppFeeShare[] {
  if (filled === quotedOutput || quotedOutput === 0n) return quoted.map((share) => ({ ...share }));
  return quoted.map((share) => ({ ...share, amount: (share.amount * filled) / quotedOutput }));
}
