// covers: refundFailReason:AMOUNT_TOO_LOW_TO_REFUND
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { refundFailReasonBeforeSending } from '../../../src/domain/fill/refundFailReason';
import { ethOn } from '../../support/requestRecordFixture';

const eth = ethOn(8453);
const usdc = { chainId: 8453, address: '0x00000000000000000000000000000000000000c1' as const, decimals: 6, priceUsdMicros: 1_000_000n };

describe('refundFailReasonBeforeSending (SPEC §7.4)', () => {
  it('in the gas currency: refunds only what is worth more than the gas', () => {
    expect(refundFailReasonBeforeSending({ amount: 1n, currency: eth }, { amount: 50_000n, currency: eth })).toBe('AMOUNT_TOO_LOW_TO_REFUND');
    expect(refundFailReasonBeforeSending({ amount: 50_000n, currency: eth }, { amount: 50_000n, currency: eth })).toBe('AMOUNT_TOO_LOW_TO_REFUND');
    expect(refundFailReasonBeforeSending({ amount: 50_001n, currency: eth }, { amount: 50_000n, currency: eth })).toBeNull();
  });

  it('in another currency: compares USD values ($0.01 of USDC vs $0.03 of gas, and the other way round)', () => {
    const gas = { amount: 10_000_000_000_000n, currency: eth }; // 0.00001 ETH at $3000 = $0.03
    expect(refundFailReasonBeforeSending({ amount: 10_000n, currency: usdc }, gas)).toBe('AMOUNT_TOO_LOW_TO_REFUND');
    expect(refundFailReasonBeforeSending({ amount: 40_000n, currency: usdc }, gas)).toBeNull();
  });

  it('is monotone: a larger refund is never refused where a smaller one is sent', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.bigInt({ min: 0n, max: 10n ** 20n }), (a, b, gas) => {
        const [small, large] = a <= b ? [a, b] : [b, a];
        const gasCost = { amount: gas, currency: eth };
        if (refundFailReasonBeforeSending({ amount: small, currency: usdc }, gasCost) === null) {
          expect(refundFailReasonBeforeSending({ amount: large, currency: usdc }, gasCost)).toBeNull();
        }
      }),
    );
  });
});
