import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bumpedFee, inclusionCheckIntervalMs, INCLUSION_CHECKS_PER_WINDOW, unseenFillStep } from '../../../src/domain/fill/fillInclusion';

// covers: failReason:TRANSACTION_NOT_INCLUDED

/** SPEC §7.2: the retry and gas-bump window of a fill its chain has not seen. */
describe('fill inclusion window', () => {
  it('looks INCLUSION_CHECKS_PER_WINDOW times per window; re-broadcasts before the window has elapsed, gives up from then on', () => {
    expect(inclusionCheckIntervalMs(120)).toBe(120_000 / INCLUSION_CHECKS_PER_WINDOW);
    const first = 1_700_000_000_000;
    const steps = Array.from({ length: INCLUSION_CHECKS_PER_WINDOW }, (_, i) =>
      unseenFillStep({ firstBroadcastAtMs: first, nowMs: first + (i + 1) * inclusionCheckIntervalMs(120), windowSeconds: 120 }),
    );
    expect(steps).toEqual([...Array.from({ length: INCLUSION_CHECKS_PER_WINDOW - 1 }, () => 'rebroadcast'), 'give-up']);
  });

  it('each bump raises a fee by at least 12.5% (rounded up), so a node would take it as a replacement', () => {
    expect(bumpedFee(1_000_000_000n, 0)).toBe(1_000_000_000n);
    expect(bumpedFee(1_000_000_000n, 1)).toBe(1_125_000_000n);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 24n }), fc.integer({ min: 0, max: 8 }), (fee, bumps) => {
        const next = bumpedFee(fee, bumps + 1);
        const previous = bumpedFee(fee, bumps);
        expect(next * 1000n).toBeGreaterThanOrEqual(previous * 1125n);
        if (fee > 0n) expect(next).toBeGreaterThan(previous);
      }),
    );
  });
});
