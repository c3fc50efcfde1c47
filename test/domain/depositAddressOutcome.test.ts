import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decideFillForDeposit } from '../../src/domain/bridgeQuote';
import { decideFillForRequest, refundRecipientOf } from '../../src/domain/depositAddressOutcome';
import type { DepositAddressInfo } from '../../src/domain/requestRecord';
import { makeRequestRecord } from '../support/requestRecordFixture';

// covers: failReason:DEPOSITED_AMOUNT_TOO_LOW_TO_FILL

const addressOf = (type: 'open' | 'strict'): DepositAddressInfo => ({
  address: '0x00000000000000000000000000000000000000aa',
  type,
  depositor: null,
  depositTxHash: null,
  recoveryAddress: null,
});

/** SPEC §3 related rules: strict deposit addresses take exactly the quoted input. */
describe('decideFillForRequest', () => {
  const record = makeRequestRecord();
  const { amountIn, amountOut } = record.quote.amounts;
  const deposited = fc.bigInt({ min: 1n, max: amountIn * 3n });

  it('strict: exact fills the quoted output, under refunds whole, over fills the quoted output and returns the excess', () => {
    const strict = { ...record, depositAddress: addressOf('strict') };
    fc.assert(
      fc.property(deposited, (paid) => {
        const decision = decideFillForRequest(strict, paid);
        if (paid < amountIn) {
          expect(decision).toEqual({ kind: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' });
        } else {
          expect(decision).toEqual({ kind: 'fill', amountOut, excess: paid - amountIn });
        }
      }),
    );
  });

  it('open deposit addresses and depository deposits are revalidated against what arrived, never with an excess leg', () => {
    for (const depositAddress of [null, addressOf('open')]) {
      fc.assert(
        fc.property(deposited, (paid) => {
          const decision = decideFillForRequest({ ...record, depositAddress }, paid);
          const plain = decideFillForDeposit(record.quote, paid);
          expect(decision).toEqual(plain.kind === 'fill' ? { ...plain, excess: 0n } : plain);
        }),
      );
    }
  });

  it('refunds go to refundTo when given, else to the depositor', () => {
    expect(refundRecipientOf({ refundTo: '0xRefund' }, '0xPayer')).toBe('0xRefund');
    expect(refundRecipientOf({ refundTo: null }, '0xPayer')).toBe('0xPayer');
  });
});
