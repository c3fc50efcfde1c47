import { describe, expect, it } from 'vitest';
import { buildLegacyRequestRecordView } from '../../../src/domain/listing/legacyRequestRecordView';
import { buildRequestRecordView } from '../../../src/domain/request/requestRecordView';
import { listingRecords, WALLETS } from '../../support/listingFixtures';
import { hexId, makeRequestRecord } from '../../support/requestRecordFixture';

// covers: failReason:DEPOSIT_REORGED, failReason:SLIPPAGE, refundFailReason:AMOUNT_TOO_LOW_TO_REFUND

const records = listingRecords({ a: 'key-a', b: 'key-b' });

describe('buildRequestRecordView (SPEC §2.3)', () => {
  it('has every §2.3 top-level field, and every data field that has a value', () => {
    const view = buildRequestRecordView(records.bridge);
    expect(Object.keys(view)).toEqual(
      expect.arrayContaining(['id', 'status', 'user', 'recipient', 'sender', 'refundTo', 'supersededByRequestId', 'depositAddress', 'data', 'requestType', 'features', 'createdAt', 'updatedAt', 'protocol']),
    );
    expect(Object.keys(view.data)).toEqual(
      expect.arrayContaining(['slippageTolerance', 'failReason', 'refundFailReason', 'usesExternalLiquidity', 'timeEstimate', 'triggeredByFastFill', 'inTxs', 'outTxs', 'fees', 'metadata']),
    );
  });

  it('writes amounts as strings, times as ISO strings, and the parties from the record', () => {
    const view = buildRequestRecordView(records.bridge);
    expect(view).toMatchObject({
      id: hexId(0xb1),
      status: 'success',
      user: WALLETS.alice,
      recipient: WALLETS.bob,
      sender: WALLETS.alice,
      refundTo: null,
      depositAddress: null,
      createdAt: '2026-11-20T12:00:00.000Z',
      updatedAt: '2026-11-20T12:00:05.000Z',
      protocol: { orderId: hexId(0x0d1), hubType: 'onchain' },
      data: {
        slippageTolerance: '50',
        failReason: null,
        refundFailReason: null,
        timeEstimate: 2,
        metadata: {
          currencyIn: { amount: '1000000000000000000', amountUsd: '3000', currency: { symbol: 'ETH', chainId: 1 } },
          currencyOut: { amount: '998979000000000000', minimumAmount: '993984105000000000' },
        },
        fees: {
          quoted: { execution: { amount: '21000000000000', usd: '0.063' }, platform: { amount: '1000000000000000', usd: '3' }, app: { amount: '0' } },
          // the request succeeded: what the fill charged
          actual: { execution: { amount: '21000000000000', usd: '0.063' }, platform: { amount: '1000000000000000', usd: '3' }, app: { amount: '0' } },
        },
      },
    });
    expect(view.data.inTxs[0]).toEqual({
      txHash: hexId(0xd1),
      fee: '21000000000000',
      feeUsd: '0.063',
      block: 10,
      type: 'deposit',
      chainId: 1,
      timestamp: 1000,
      status: 'success',
      data: { from: WALLETS.alice, to: WALLETS.carol, currency: '0x0000000000000000000000000000000000000000', amount: '1000000000000000000' },
      stateChanges: null,
    });
    // SPEC §2.3 types these without null: with no value they are left out, never null
    for (const field of ['failedTxHash', 'failedTxBlockNumber', 'failedCallData', 'appFees', 'feeSponsorship']) expect(view.data, field).not.toHaveProperty(field);
    // the nullable ones stay, null
    expect(view).toMatchObject({ refundTo: null, supersededByRequestId: null, depositAddress: null, data: { failReason: null, refundFailReason: null } });
    // the fees actually charged are known once the fill succeeded, not before
    expect(buildRequestRecordView(makeRequestRecord({ status: 'pending' })).data.fees).not.toHaveProperty('actual');
  });

  it('reports failures: failReason, refundFailReason, failedTxHash/BlockNumber and a reorged inTx with metadata.reorg', () => {
    const view = buildRequestRecordView(records.reorged);
    expect(view.data).toMatchObject({ failReason: 'DEPOSIT_REORGED', refundFailReason: 'AMOUNT_TOO_LOW_TO_REFUND', failedTxHash: hexId(0xfa), failedTxBlockNumber: 44 });
    expect(view.data.inTxs[0]).toMatchObject({ status: 'failure', metadata: { reorg: { source: 'chain-8453-block-hash-watcher', failReason: 'DEPOSIT_REORGED', blockNumber: 40 } } });
    expect(buildRequestRecordView(makeRequestRecord({ status: 'refund' })).data.failReason).toBe('UNKNOWN');
  });

  it('shows deposit addresses, app fees (quoted and actual, with USD) and the refunded amount', () => {
    const deposit = buildRequestRecordView(records.depositAddress);
    expect(deposit).toMatchObject({
      refundTo: WALLETS.carol,
      depositAddress: { address: WALLETS.depositAddress, type: 'strict', depositor: WALLETS.carol, depositTxHash: hexId(0xda), recoveryAddress: null },
      features: ['deposit_address'],
    });
    const swap = buildRequestRecordView(records.swap);
    expect(swap.data.appFees).toMatchObject({
      quoted: [{ recipient: WALLETS.carol, bps: '100', amount: '2000000', amountFormatted: '2' }],
      actual: [{ recipient: WALLETS.carol, bps: '100', amount: '2000000', amountFormatted: '2', amountUsd: '2' }],
      currency: { symbol: 'USDC', decimals: 6 },
    });
    expect(swap.data.fees.quoted.app).toEqual({ usd: '2', amount: '2000000', amountFormatted: '2' });
    expect(swap).toMatchObject({ requestType: 'Same-chain Swap', data: { failReason: 'SLIPPAGE' } });
  });

  it('adds referrer and platformFee only when asked to (the caller key made the request)', () => {
    expect(buildRequestRecordView(records.bridge).data).not.toHaveProperty('referrer');
    expect(buildRequestRecordView(records.swap, { includeAuthenticatedData: true }).data).toMatchObject({
      referrer: 'test-referrer',
      platformFee: { relayFeeBps: 10, integratorFeeBps: 100, totalFeeBps: 110, integratorFee: { amount: '2000000' }, integratorFeeRecipient: WALLETS.carol },
    });
  });
});

describe('buildLegacyRequestRecordView (GET /requests, /requests/v2)', () => {
  it('renames to the older fields and maps the status enums', () => {
    const v2 = buildLegacyRequestRecordView(makeRequestRecord({ status: 'submitted' }), 2);
    expect(v2.status).toBe('pending');
    const v1 = buildLegacyRequestRecordView(records.swap, 1);
    expect(v1).toMatchObject({ status: 'fallback', data: { currency: 'usdc', outTxs: [{ hash: hexId(0xe2), type: 'refund' }] } });
    expect(v1).not.toHaveProperty('depositAddress');
    expect(buildLegacyRequestRecordView(records.depositAddress, 2).depositAddress).toEqual({
      address: WALLETS.depositAddress,
      depositAddressType: 'strict',
      depositor: WALLETS.carol,
      depositTxHash: hexId(0xda),
    });
  });

  it('has no null where the SDK types of the older records have none, and their app fee fields', () => {
    const pending = buildLegacyRequestRecordView(makeRequestRecord({ status: 'pending' }), 2);
    for (const field of ['failReason', 'refundFailReason', 'refundCurrencyData', 'failedTxHash', 'appFees']) expect(pending.data, field).not.toHaveProperty(field);
    const swap = buildLegacyRequestRecordView(records.swap, 2);
    expect(swap.data).toMatchObject({
      failReason: 'SLIPPAGE',
      appFees: [{ recipient: WALLETS.carol, bps: '100', amount: '2000000' }],
      paidAppFees: [{ recipient: WALLETS.carol, bps: '100', amount: '2000000', amountUsd: '2' }],
      appFeeCurrencyObject: { symbol: 'USDC', decimals: 6 },
    });
  });
});
