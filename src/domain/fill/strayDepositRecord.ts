import { encodeAbiParameters, isHex, keccak256, size, stringToBytes, type Address, type Hex } from 'viem';
import type { Currency } from '../chain/currency';
import type { IndexedDeposit } from '../chain/observedDeposit';
import { newWaitingRequest, type QuoteFacts, type RequestRecord } from '../request/requestRecord';

type DepositKey = Pick<IndexedDeposit, 'requestId' | 'chainId' | 'txHash' | 'logIndex'>;

/**
 * A deposit no request can take — a second one for a request that already has its deposit, or one
 * naming an id nobody quoted — gets a request record of its own, which carries its refund (SPEC
 * §7.2 DOUBLE_SPEND, §7.3 ORPHANED_DEPOSIT_REFUND) where the status, the listing and webhooks show
 * it, without touching the request it named. Its id is derived from the deposit, so seeing the
 * deposit again (a restart, a reorg that re-includes it) finds the same record.
 */
export function strayDepositRecordId(deposit: DepositKey): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'string' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'bytes32' }, { type: 'uint256' }],
      ['stray-deposit', deposit.requestId, BigInt(deposit.chainId), transactionIdWord(deposit.txHash), BigInt(deposit.logIndex)],
    ),
  );
}

/** A transaction id as a bytes32 word: a 32-byte hex hash as it is; another chain's encoding (a base58 signature) by its keccak. */
function transactionIdWord(txHash: string): Hex {
  return isHex(txHash) && size(txHash) === 32 ? txHash : keccak256(stringToBytes(txHash));
}

/** The record of a second deposit for `original`: the same quote, API key and refund address. */
export function duplicateDepositRecord(original: RequestRecord, deposit: DepositKey, now: number): RequestRecord {
  return newWaitingRequest(strayDepositRecordId(deposit), structuredClone(original.quote), now, {
    apiKey: original.apiKey,
    refundTo: original.refundTo,
    usesExternalLiquidity: original.usesExternalLiquidity,
  });
}

/**
 * The record of a deposit naming no known request. Nothing was quoted, so its quote facts say only
 * what the chain shows: the depositor sent `amount` of `currency` on the deposit's chain, and
 * nothing is to come out (a `Send` back to the depositor, amountOut 0, no fees).
 */
export function orphanDepositRecord(deposit: DepositKey & Pick<IndexedDeposit, 'depositor' | 'amount'>, currency: Currency, depository: Address, now: number): RequestRecord {
  const quote: QuoteFacts = {
    requestType: 'Send',
    operation: 'send',
    tradeType: 'EXACT_INPUT',
    user: deposit.depositor,
    recipient: deposit.depositor,
    referrer: null,
    originChainId: deposit.chainId,
    destinationChainId: deposit.chainId,
    currencyIn: currency,
    currencyOut: currency,
    amounts: { amountIn: deposit.amount, amountOut: 0n, minimumAmountOut: 0n, relayerGas: 0n, relayerService: 0n, relayer: 0n },
    serviceFeeBps: 0n,
    slippageBps: 0n,
    timeEstimateSeconds: 0,
    depository,
    quotedAt: now,
    features: [],
    orderId: null,
  };
  return newWaitingRequest(strayDepositRecordId(deposit), quote, now);
}
