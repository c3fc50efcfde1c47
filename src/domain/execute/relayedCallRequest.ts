import type { Address, Hex } from 'viem';
import type { Currency } from '../chain/currency';
import type { QuoteFacts } from '../request/requestRecord';
import { canonicalJson, deriveRequestId } from '../request/requestId';
import type { RelayedCall } from './relayedCall';

/**
 * SPEC §1.6 gasless execution: a raw call posted to `/execute` without a `requestId` (and
 * depositing for no waiting request) is a request of its own, so its status can be followed. Its
 * request type is `Call` (SPEC §1.2): the call is what the user asked for, on one chain, with no
 * deposit to fill. These are the facts it is recorded with, in place of a quote's.
 */
export interface RelayedCallRequestParams {
  chainId: number;
  call: RelayedCall;
  /** The account the call goes to: the user's own account in an EIP-7702 batch (the official SDK's `executeGaslessBatch`). */
  user: Address;
  nativeCurrency: Currency;
  depository: Address;
  referrer: string | null;
  now: number;
}

export function relayedCallQuoteFacts(params: RelayedCallRequestParams): QuoteFacts {
  const { call, nativeCurrency } = params;
  return {
    requestType: 'Call',
    operation: 'call',
    tradeType: 'EXACT_INPUT',
    user: params.user,
    recipient: params.user,
    referrer: params.referrer,
    originChainId: params.chainId,
    destinationChainId: params.chainId,
    currencyIn: nativeCurrency,
    currencyOut: nativeCurrency,
    // the call's value is all it moves; the relayer (or the sponsor) pays the gas, so no fee is charged
    amounts: { amountIn: call.value, amountOut: call.value, minimumAmountOut: call.value, relayerGas: 0n, relayerService: 0n, relayer: 0n },
    serviceFeeBps: 0n,
    slippageBps: 0n,
    timeEstimateSeconds: 0,
    depository: params.depository,
    quotedAt: params.now,
    features: ['gasless_execution'],
    orderId: null,
    calls: [{ to: call.to as Address, value: call.value, data: call.data as Hex }],
  };
}

/**
 * A relayed call's request id: like a quote's (`deriveRequestId`), from the seed, this kind's own
 * sequence number and the call, so the same calls in the same order get the same ids on every run.
 */
export function relayedCallRequestId(params: { seed: number; sequence: bigint; chainId: number; call: RelayedCall }): Hex {
  const { call } = params;
  const body = { kind: 'relayedCall', chainId: params.chainId, to: call.to.toLowerCase(), data: call.data.toLowerCase(), value: call.value, authorizations: call.authorizationList?.length ?? 0 };
  return deriveRequestId({ seed: params.seed, sequence: params.sequence, canonicalBody: canonicalJson(body) });
}
