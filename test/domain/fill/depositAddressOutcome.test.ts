import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countDeposit, refundRecipientOf } from '../../../src/domain/fill/depositAddressOutcome';
import type { DepositAddressInfo } from '../../../src/domain/request/requestRecord';
import { makeRequestRecord } from '../../support/requestRecordFixture';

// covers: failReason:DEPOSITED_AMOUNT_TOO_LOW_TO_FILL

const addressOf = (type: 'open' | 'strict'): DepositAddressInfo => ({
  address: '0x00000000000000000000000000000000000000aa',
  type,
  depositor: null,
  depositTxHash: null,
  recoveryAddress: null,
});

/** SPEC §3 related rules: strict deposit addresses take exactly the quoted input. */
describe('countDeposit', () => {
  const record = makeRequestRecord();
  const { amountIn } = record.quote.amounts;
  const deposited = fc.bigInt({ min: 1n, max: amountIn * 3n });

  it('strict: under refunds whole; exact and over count the quoted input, the rest is the excess', () => {
    const strict = { ...record, depositAddress: addressOf('strict') };
    fc.assert(
      fc.property(deposited, (paid) => {
        const counted = countDeposit(strict, paid);
        if (paid < amountIn) expect(counted).toEqual({ kind: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' });
        else expect(counted).toEqual({ kind: 'count', counted: amountIn, excess: paid - amountIn });
      }),
    );
  });

  it('open deposit addresses and depository deposits count what arrived, never with an excess leg', () => {
    for (const depositAddress of [null, addressOf('open')]) {
      fc.assert(
        fc.property(deposited, (paid) => {
          expect(countDeposit({ ...record, depositAddress }, paid)).toEqual({ kind: 'count', counted: paid, excess: 0n });
        }),
      );
    }
  });

  it('refunds go to refundTo when given, else to the depositor', () => {
    expect(refundRecipientOf({ refundTo: '0xRefund' }, '0xPayer')).toBe('0xRefund');
    expect(refundRecipientOf({ refundTo: null }, '0xPayer')).toBe('0xPayer');
  });
});
