import { describe, expect, it } from 'vitest';
import { REFUND_FAIL_REASONS, REQUEST_STATUSES, reportedFailReason, reportedRefundFailReason, type RequestStatus } from '../../../src/domain/request/requestStatus';
import { buildStatusEventData, buildStatusResponse, fillTxHashesOf, inTxHashesOf } from '../../../src/domain/request/statusResponse';
import { hexId, makeRequestRecord, makeTransactionEntry } from '../../support/requestRecordFixture';

// covers: failReason:N/A, failReason:UNKNOWN, refundFailReason:N/A

const NON_FAILURE: readonly RequestStatus[] = ['waiting', 'depositing', 'pending', 'submitted', 'success'];
const FAILURE_LIKE: readonly RequestStatus[] = ['failure', 'refund'];

describe('buildStatusResponse (SPEC §2.4)', () => {
  it('has exactly the §2.4 fields', () => {
    expect(Object.keys(buildStatusResponse(makeRequestRecord())).sort()).toEqual(
      ['destinationChainId', 'details', 'failReason', 'inTxHashes', 'originChainId', 'refundFailReason', 'status', 'txHashes', 'updatedAt'].sort(),
    );
  });

  it('reports each status as it is, with the record timestamps and chain ids', () => {
    for (const status of REQUEST_STATUSES) {
      const response = buildStatusResponse(makeRequestRecord({ status, updatedAt: 1_700_000_123_456 }));
      expect(response).toMatchObject({ status, updatedAt: 1_700_000_123_456, originChainId: 1, destinationChainId: 8453, details: null });
    }
  });

  it.each(NON_FAILURE)('failReason is N/A on %s, even with a reason recorded', (status) => {
    expect(buildStatusResponse(makeRequestRecord({ status })).failReason).toBe('N/A');
    expect(buildStatusResponse(makeRequestRecord({ status, failReason: 'SLIPPAGE' })).failReason).toBe('N/A');
  });

  it.each(FAILURE_LIKE)('failReason on %s is the recorded reason, or UNKNOWN when none was recorded', (status) => {
    expect(buildStatusResponse(makeRequestRecord({ status, failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' })).failReason).toBe(
      'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL',
    );
    expect(buildStatusResponse(makeRequestRecord({ status, failReason: null })).failReason).toBe('UNKNOWN');
  });

  it('refundFailReason defaults to N/A and otherwise reports the recorded value, on every status', () => {
    for (const status of REQUEST_STATUSES) {
      expect(buildStatusResponse(makeRequestRecord({ status })).refundFailReason).toBe('N/A');
      expect(buildStatusResponse(makeRequestRecord({ status, refundFailReason: 'AMOUNT_TOO_LOW_TO_REFUND' })).refundFailReason).toBe(
        'AMOUNT_TOO_LOW_TO_REFUND',
      );
    }
  });

  it('reportedFailReason / reportedRefundFailReason agree with the response builder over every status and value', () => {
    for (const status of REQUEST_STATUSES) {
      expect(reportedFailReason(status, null)).toBe(FAILURE_LIKE.includes(status) ? 'UNKNOWN' : 'N/A');
    }
    for (const value of REFUND_FAIL_REASONS) expect(reportedRefundFailReason(value)).toBe(value);
  });

  it('inTxHashes are the origin-side transactions; txHashes the mined fills then the submitted-but-unmined fills, each once', () => {
    const deposit = makeTransactionEntry({ txHash: hexId(0xd0), type: 'deposit' });
    const refund = makeTransactionEntry({ txHash: hexId(0xee), type: 'refund' });
    const minedFill = makeTransactionEntry({ txHash: hexId(0xf1), type: 'fill' });
    const record = makeRequestRecord({
      status: 'submitted',
      inTxs: [deposit, refund],
      outTxs: [minedFill],
      submittedTxs: [
        { txHash: hexId(0xf1), chainId: 8453, type: 'fill' }, // already mined: must not repeat
        { txHash: hexId(0xf2), chainId: 8453, type: 'fill' }, // in flight
        { txHash: hexId(0xe2), chainId: 1, type: 'refund' }, // a refund is not a fill
      ],
    });
    const response = buildStatusResponse(record);
    expect(response.inTxHashes).toEqual([hexId(0xd0), hexId(0xee)]);
    expect(response.txHashes).toEqual([hexId(0xf1), hexId(0xf2)]);
    expect(inTxHashesOf(record)).toEqual(response.inTxHashes);
    expect(fillTxHashesOf(record)).toEqual(response.txHashes);
  });

  it('a fill that is only submitted shows in txHashes at once', () => {
    const record = makeRequestRecord({ status: 'submitted', submittedTxs: [{ txHash: hexId(0xf9), chainId: 8453, type: 'fill' }] });
    expect(buildStatusResponse(record).txHashes).toEqual([hexId(0xf9)]);
  });

  it('refund transactions on the destination side (outTxs of type refund) are not fills', () => {
    const record = makeRequestRecord({ status: 'refund', outTxs: [makeTransactionEntry({ txHash: hexId(0xaa), type: 'refund' })] });
    expect(buildStatusResponse(record).txHashes).toEqual([]);
  });

  it('no transactions: empty arrays', () => {
    expect(buildStatusResponse(makeRequestRecord())).toMatchObject({ inTxHashes: [], txHashes: [] });
  });
});

describe('buildStatusEventData (SPEC §6.1 data)', () => {
  it('is the status response plus requestId, referrer and depositAddress null', () => {
    const record = makeRequestRecord({ status: 'refund', failReason: 'SLIPPAGE' });
    expect(buildStatusEventData(record)).toEqual({
      ...buildStatusResponse(record),
      requestId: record.id,
      referrer: 'test-referrer',
      depositAddress: null,
    });
  });

  it('referrer is null when the quote named none', () => {
    const base = makeRequestRecord();
    const record = makeRequestRecord({ quote: { ...base.quote, referrer: null } });
    expect(buildStatusEventData(record).referrer).toBeNull();
  });
});
