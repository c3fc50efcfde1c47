import type { Address, Hex } from 'viem';
import type { Currency } from '../../src/domain/chain/currency';
import type { RequestRecord } from '../../src/domain/request/requestRecord';
import { ethOn, hexId, makeRequestRecord, makeTransactionEntry } from './requestRecordFixture';

/** The 6-decimal stablecoin on a chain, as the EVM adapter describes it. */
export function usdcOn(chainId: number): Currency {
  return {
    chainId,
    address: '0x8e2Ed702E5333fAD65008459C74516238caB5a51',
    symbol: 'USDC',
    name: 'USD Coin',
    decimals: 6,
    isNative: false,
    logoURI: 'https://intentsim.invalid/logos/usdc.png',
    verified: true,
    priceUsdMicros: 1_000_000n,
  };
}

export const WALLETS = {
  alice: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as Address,
  bob: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' as Address,
  carol: '0x90F79bf6EB2c4f870365E785982E1f101E93b906' as Address,
  depositAddress: '0x00000000000000000000000000000000DeaDBeef' as Address,
};

const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);

/**
 * Records of every kind the listing must tell apart, including ones no real flow makes yet
 * (swaps, deposit addresses, app fees), for breadth:
 * - bridge: ETH 1 → 8453, success, key A, deposit block 10 (t=1000), fill block 20 (t=1004)
 * - swap: same-chain USDC → ETH on 8453, refund (SLIPPAGE), key B, app fees (2 USDC)
 * - depositAddress: strict deposit-address USDC 42161 → 1, waiting, features deposit_address
 * - reorged: ETH 8453 → 42161, failure (DEPOSIT_REORGED), refundFailReason set, failed fill
 */
export function listingRecords(keys: { a: string; b: string }): Record<'bridge' | 'swap' | 'depositAddress' | 'reorged', RequestRecord> {
  const bridge = makeRequestRecord({
    id: hexId(0xb1),
    status: 'success',
    createdAt: T0,
    updatedAt: T0 + 5_000,
    apiKey: keys.a,
    depositor: WALLETS.alice,
    fillAmount: 998_979_000_000_000_000n,
    inTxs: [makeTransactionEntry({ txHash: hexId(0xd1), type: 'deposit', chainId: 1, block: 10, timestamp: 1000, data: { from: WALLETS.alice, to: WALLETS.carol, currency: ethOn(1).address, amount: 10n ** 18n } })],
    outTxs: [makeTransactionEntry({ txHash: hexId(0xf1), type: 'fill', chainId: 8453, block: 20, timestamp: 1004 })],
  });
  bridge.quote = { ...bridge.quote, orderId: hexId(0x0d1) as Hex, referrer: 'app-a' };

  const swap = makeRequestRecord({
    id: hexId(0xb2),
    status: 'refund',
    createdAt: T0 + 60_000,
    updatedAt: T0 + 61_000,
    apiKey: keys.b,
    depositor: WALLETS.bob,
    failReason: 'SLIPPAGE',
    inTxs: [makeTransactionEntry({ txHash: hexId(0xd2), type: 'deposit', chainId: 8453, block: 30, timestamp: 2000 })],
    outTxs: [makeTransactionEntry({ txHash: hexId(0xe2), type: 'refund', chainId: 8453, block: 31, timestamp: 2001 })],
    appFees: { currency: usdcOn(8453), quoted: [{ recipient: WALLETS.carol, bps: 100n, amount: 2_000_000n }], actual: [{ recipient: WALLETS.carol, bps: 100n, amount: 2_000_000n }] },
  });
  swap.quote = {
    ...swap.quote,
    requestType: 'Same-chain Swap',
    operation: 'swap',
    user: WALLETS.bob,
    recipient: WALLETS.bob,
    originChainId: 8453,
    destinationChainId: 8453,
    currencyIn: usdcOn(8453),
    currencyOut: ethOn(8453),
    amounts: { ...swap.quote.amounts, amountIn: 200_000_000n },
    features: ['app_fees'],
  };

  const depositAddress = makeRequestRecord({
    id: hexId(0xb3),
    status: 'waiting',
    createdAt: T0 + 120_000,
    updatedAt: T0 + 120_000,
    apiKey: keys.a,
    refundTo: WALLETS.carol,
    depositAddress: { address: WALLETS.depositAddress, type: 'strict', depositor: WALLETS.carol, depositTxHash: hexId(0xda), recoveryAddress: null },
  });
  depositAddress.quote = {
    ...depositAddress.quote,
    user: WALLETS.carol,
    recipient: WALLETS.alice,
    originChainId: 42161,
    destinationChainId: 1,
    currencyIn: usdcOn(42161),
    currencyOut: usdcOn(1),
    amounts: { ...depositAddress.quote.amounts, amountIn: 50_000_000n },
    features: ['deposit_address'],
  };

  const reorged = makeRequestRecord({
    id: hexId(0xb4),
    status: 'failure',
    createdAt: T0 + 180_000,
    updatedAt: T0 + 300_000,
    apiKey: null,
    depositor: WALLETS.alice,
    failReason: 'DEPOSIT_REORGED',
    refundFailReason: 'AMOUNT_TOO_LOW_TO_REFUND',
    failedTxHash: hexId(0xfa),
    failedTxBlockNumber: 44,
    inTxs: [
      makeTransactionEntry({
        txHash: hexId(0xd4),
        type: 'deposit',
        chainId: 8453,
        block: 40,
        status: 'failure',
        metadata: { reorg: { detectedAt: T0 + 299_000, source: 'chain-8453-block-hash-watcher', reason: 'gone', blockNumber: 40, failReason: 'DEPOSIT_REORGED' } },
      }),
    ],
  });
  reorged.quote = { ...reorged.quote, originChainId: 8453, destinationChainId: 42161, currencyIn: ethOn(8453), currencyOut: ethOn(42161), amounts: { ...reorged.quote.amounts, amountIn: 2n * 10n ** 18n } };

  return { bridge, swap, depositAddress, reorged };
}
