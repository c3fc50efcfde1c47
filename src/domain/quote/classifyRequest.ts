import type { Currency } from '../chain/currency';
import type { RequestType } from '../request/requestRecord';

/** What decides a request's type (SPEC §1.2). */
export interface ClassifyRequestInput {
  originChainId: number;
  destinationChainId: number;
  currencyIn: Pick<Currency, 'address' | 'symbol' | 'isNative'>;
  currencyOut: Pick<Currency, 'address' | 'symbol' | 'isNative'>;
  /** The address of the wrapped native token on the (same) chain, for Wrap/Unwrap. */
  wrappedNativeAddress: string;
  /** Destination calls attached to the quote (`txs`). */
  callCount: number;
}

/** The `details.operation` string of each request type (SPEC §2.2: `bridge`, `swap` occur). */
export const OPERATION_OF: Readonly<Record<RequestType, 'bridge' | 'swap' | 'send' | 'wrap' | 'unwrap' | 'call'>> = {
  Bridge: 'bridge',
  'Crosschain Swap': 'swap',
  'Same-chain Swap': 'swap',
  Send: 'send',
  Wrap: 'wrap',
  Unwrap: 'unwrap',
  Call: 'call',
};

/**
 * SPEC §1.2: the request type, from the two chains, the two currencies and the attached calls.
 * Calls win over everything; across two chains the same symbol is a Bridge and anything else a
 * Crosschain Swap; on one chain the same token is a Send, native → its wrapped token a Wrap,
 * the reverse an Unwrap, and anything else a Same-chain Swap.
 */
export function classifyRequest(input: ClassifyRequestInput): RequestType {
  if (input.callCount > 0) return 'Call';
  const { currencyIn, currencyOut } = input;
  if (input.originChainId !== input.destinationChainId) {
    return currencyIn.symbol === currencyOut.symbol ? 'Bridge' : 'Crosschain Swap';
  }
  const wrapped = input.wrappedNativeAddress.toLowerCase();
  if (currencyIn.address.toLowerCase() === currencyOut.address.toLowerCase()) return 'Send';
  if (currencyIn.isNative && currencyOut.address.toLowerCase() === wrapped) return 'Wrap';
  if (currencyOut.isNative && currencyIn.address.toLowerCase() === wrapped) return 'Unwrap';
  return 'Same-chain Swap';
}
