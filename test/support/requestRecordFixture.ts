import { zeroAddress, type Hex } from 'viem';
import type { Currency } from '../../src/domain/chain/currency';
import { newWaitingRequest, type QuoteFacts, type RequestRecord, type TransactionEntry } from '../../src/domain/request/requestRecord';

/** Native ETH on a chain, as the EVM adapter describes it. */
export function ethOn(chainId: number): Currency {
  return {
    chainId,
    address: zeroAddress,
    symbol: 'ETH',
    name: 'Ether',
    decimals: 18,
    isNative: true,
    logoURI: 'https://intentsim.invalid/logos/eth.png',
    verified: true,
    priceUsdMicros: 3_000_000_000n,
  };
}

/** A 32-byte hex id built from a small number (`0x…01`). */
export function hexId(n: number): Hex {
  return `0x${n.toString(16).padStart(64, '0')}` as Hex;
}

/** A request record in `waiting`, as createQuote stores it; override any field. */
export function makeRequestRecord(overrides: Partial<RequestRecord> = {}): RequestRecord {
  const createdAt = 1_700_000_000_000;
  const quote: QuoteFacts = {
    requestType: 'Bridge',
    operation: 'bridge',
    tradeType: 'EXACT_INPUT',
    user: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    recipient: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    referrer: 'test-referrer',
    originChainId: 1,
    destinationChainId: 8453,
    currencyIn: ethOn(1),
    currencyOut: ethOn(8453),
    amounts: {
      amountIn: 10n ** 18n,
      amountOut: 998_979_000_000_000_000n,
      minimumAmountOut: 993_984_105_000_000_000n,
      relayerGas: 21_000_000_000_000n,
      relayerService: 1_000_000_000_000_000n,
      relayer: 1_021_000_000_000_000n,
    },
    serviceFeeBps: 10n,
    slippageBps: 50n,
    timeEstimateSeconds: 2,
    depository: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707',
    quotedAt: createdAt,
    features: [],
    orderId: null,
  };
  return { ...newWaitingRequest(hexId(1), quote, createdAt), ...overrides };
}

/** A mined transaction entry (deposit, fill or refund). */
export function makeTransactionEntry(overrides: Partial<TransactionEntry> & Pick<TransactionEntry, 'txHash' | 'type'>): TransactionEntry {
  return {
    chainId: overrides.type === 'fill' ? 8453 : 1,
    fee: 21_000_000_000_000n,
    feeUsdMicros: 63_000n,
    block: 10,
    blockHash: hexId(0xb10c),
    timestamp: 1_700_000_000,
    status: 'success',
    data: { from: zeroAddress, to: zeroAddress, currency: zeroAddress, amount: 1n },
    ...overrides,
  };
}
