import { describe, expect, it } from 'vitest';
import type { Address, Hex } from 'viem';
import { duplicateDepositRecord, orphanDepositRecord, strayDepositRecordId } from '../../../src/domain/fill/strayDepositRecord';
import { ethOn, hexId, makeRequestRecord } from '../../support/requestRecordFixture';

/** SPEC §7.2 DOUBLE_SPEND, §7.3 ORPHANED_DEPOSIT_REFUND: a deposit no request can take gets a record of its own. */
describe('stray deposit records', () => {
  const deposit = { requestId: hexId(1), chainId: 1, txHash: hexId(0xd0) as Hex, logIndex: 0, depositor: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as Address, amount: 5n };

  it('ids are derived from the deposit: the same deposit gives the same id, another log or chain another', () => {
    const id = strayDepositRecordId(deposit);
    expect(id).toMatch(/^0x[0-9a-f]{64}$/);
    expect(strayDepositRecordId({ ...deposit })).toBe(id);
    expect(new Set([id, strayDepositRecordId({ ...deposit, logIndex: 1 }), strayDepositRecordId({ ...deposit, chainId: 10 }), deposit.requestId]).size).toBe(4);
  });

  it("a duplicate carries the named request's quote, key and refund address, and starts waiting", () => {
    const original = { ...makeRequestRecord({ apiKey: 'key-1', refundTo: '0x00000000000000000000000000000000000000ee' }), status: 'success' as const };
    const duplicate = duplicateDepositRecord(original, deposit, 42);
    expect(duplicate).toMatchObject({ id: strayDepositRecordId(deposit), status: 'waiting', apiKey: 'key-1', refundTo: original.refundTo, createdAt: 42, inTxs: [], outTxs: [] });
    expect(duplicate.quote).toEqual(original.quote);
    expect(duplicate.quote).not.toBe(original.quote);
  });

  it('an orphan describes only what the chain shows: a Send of the deposit back to its depositor, nothing out', () => {
    const orphan = orphanDepositRecord(deposit, ethOn(1), '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707', 42);
    expect(orphan).toMatchObject({ status: 'waiting', apiKey: null, refundTo: null });
    expect(orphan.quote).toMatchObject({
      requestType: 'Send',
      user: deposit.depositor,
      recipient: deposit.depositor,
      originChainId: 1,
      destinationChainId: 1,
      amounts: { amountIn: 5n, amountOut: 0n, relayer: 0n },
      orderId: null,
    });
  });
});
