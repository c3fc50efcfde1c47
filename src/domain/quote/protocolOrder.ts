import { stringToBytes, type Hex } from 'viem';
import { keccak256Fast } from '../hash/keccak256Fast';
import { canonicalJson } from '../request/requestId';
import type { QuoteFacts } from '../request/requestRecord';

/** SPEC §2.2 `protocol.v2.orderData`; amounts as decimal strings. */
export interface ProtocolOrderData {
  version: string;
  solverChainId: string;
  solver: string;
  salt: string;
  inputs: Array<{
    payment: { chainId: string; currency: string; amount: string; weight: string };
    refunds: Array<{ chainId: string; recipient: string; currency: string; minimumAmount: string; deadline: number; extraData: Hex }>;
  }>;
  output: {
    chainId: string;
    payments: Array<{ recipient: string; currency: string; minimumAmount: string; expectedAmount: string }>;
    calls: Array<{ to: string; value: string; data: string }>;
    deadline: number;
    extraData: Hex;
  };
  fees: Array<{ recipient: string; chainId: string; currency: string; amount: string }>;
}

export interface ProtocolOrder {
  orderId: Hex;
  hubType: 'onchain';
  orderData: ProtocolOrderData;
  paymentDetails: { chainId: string; depository: string; currency: string; amount: string };
}

export const PROTOCOL_ORDER_VERSION = 'v1';

/**
 * SPEC §2.2 `protocol.v2` for a quote that settles through the depository. Chains are named by
 * their protocol chain id (the `protocol.v2.chainId` of `GET /chains`). `orderId` is the
 * keccak256 of the canonical JSON of the order data, so the same quote gives the same id;
 * the salt is derived from the request id. Pure: the signature is added by the caller.
 */
export function buildProtocolOrder(params: {
  requestId: Hex;
  facts: QuoteFacts;
  protocolChainName: (chainId: number) => string;
  solver: string;
  /** Unix seconds after which the order is no longer filled (quote time + TTL). */
  deadline: number;
  refundRecipient: string;
  /** App fee recipients paid in the stablecoin on the origin chain. */
  appFees: Array<{ recipient: string; currency: string; amount: bigint }>;
}): ProtocolOrder {
  const { facts } = params;
  const origin = params.protocolChainName(facts.originChainId);
  const destination = params.protocolChainName(facts.destinationChainId);
  const { amounts } = facts;
  const topUp = facts.options?.gasTopUp;
  const orderData: ProtocolOrderData = {
    version: PROTOCOL_ORDER_VERSION,
    solverChainId: origin,
    solver: params.solver,
    salt: BigInt(keccak256Fast(stringToBytes(`salt:${params.requestId}`))).toString(),
    inputs: [
      {
        payment: { chainId: origin, currency: facts.currencyIn.address, amount: amounts.amountIn.toString(), weight: '1' },
        refunds: [
          {
            chainId: origin,
            recipient: params.refundRecipient,
            currency: facts.currencyIn.address,
            minimumAmount: amounts.amountIn.toString(),
            deadline: params.deadline,
            extraData: '0x',
          },
        ],
      },
    ],
    output: {
      chainId: destination,
      payments: [
        {
          recipient: facts.recipient,
          currency: facts.currencyOut.address,
          minimumAmount: amounts.minimumAmountOut.toString(),
          expectedAmount: amounts.amountOut.toString(),
        },
        ...(topUp
          ? [{ recipient: facts.recipient, currency: topUp.currency.address, minimumAmount: topUp.amount.toString(), expectedAmount: topUp.amount.toString() }]
          : []),
      ],
      // the destination calls the fill runs (the SDK's `txs`), as the order commits to them
      calls: (facts.calls ?? []).map((call) => ({ to: call.to, value: call.value.toString(), data: call.data })),
      deadline: params.deadline,
      extraData: '0x',
    },
    fees: [
      { recipient: params.solver, chainId: origin, currency: facts.currencyIn.address, amount: amounts.relayer.toString() },
      ...params.appFees.map((fee) => ({ recipient: fee.recipient, chainId: origin, currency: fee.currency, amount: fee.amount.toString() })),
    ],
  };
  return {
    // hashed from the UTF-8 bytes directly (the same hash as through hex, without building the hex)
    orderId: keccak256Fast(stringToBytes(canonicalJson(orderData))),
    hubType: 'onchain',
    orderData,
    paymentDetails: { chainId: origin, depository: facts.depository, currency: facts.currencyIn.address, amount: amounts.amountIn.toString() },
  };
}
