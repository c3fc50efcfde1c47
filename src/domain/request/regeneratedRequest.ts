import type { RequestRecord } from './requestRecord';

/** What a new quote asks for, as far as regenerating an earlier deposit-address request goes. */
export interface RegeneratingQuote {
  apiKey: string | null;
  user: string;
  recipient: string;
  originChainId: number;
  originCurrency: string;
  destinationChainId: number;
  destinationCurrency: string;
  depositAddressType: 'open' | 'strict';
}

/**
 * SPEC §2.3 `supersededByRequestId`: a new quote regenerates an earlier deposit-address request —
 * takes over its deposit address, and with it the sweep and fill of whatever is paid there — when
 * the earlier one is still `waiting` with nothing paid into its address (no deposit seen, even in
 * the mempool), has not been superseded already, and asked for the same thing: same API key, user
 * and recipient, same origin and destination chain and currency, same deposit-address type.
 */
export function regeneratesRequest(earlier: RequestRecord, quote: RegeneratingQuote): boolean {
  const { quote: facts, depositAddress } = earlier;
  return (
    earlier.status === 'waiting' &&
    earlier.supersededByRequestId === null &&
    earlier.inTxs.length === 0 &&
    depositAddress !== null &&
    depositAddress.depositTxHash === null &&
    depositAddress.type === quote.depositAddressType &&
    earlier.apiKey === quote.apiKey &&
    facts.user.toLowerCase() === quote.user.toLowerCase() &&
    facts.recipient.toLowerCase() === quote.recipient.toLowerCase() &&
    facts.originChainId === quote.originChainId &&
    facts.currencyIn.address.toLowerCase() === quote.originCurrency.toLowerCase() &&
    facts.destinationChainId === quote.destinationChainId &&
    facts.currencyOut.address.toLowerCase() === quote.destinationCurrency.toLowerCase()
  );
}
