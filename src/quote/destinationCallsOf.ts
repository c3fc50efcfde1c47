import type { Address, Hex } from 'viem';
import type { ChainAdapter } from '../chains/ChainAdapter';
import type { DestinationCall } from '../domain/request/requestRecord';
import { InvalidAddressError } from '../errors/quoteErrors';
import type { QuoteRequest } from './quoteRequestSchema';

/**
 * The destination calls attached to a quote: the service's public `txs: [{ to, value, data }]`
 * (the official SDK's request body). `value` defaults to 0 and `data` to empty calldata.
 */
export function destinationCallsOf(request: QuoteRequest, destination: ChainAdapter): DestinationCall[] {
  return (request.txs ?? []).map((tx, index) => {
    if (!destination.isValidAddress(tx.to)) {
      throw new InvalidAddressError(`txs[${index}].to ${tx.to} is not a valid address on chain ${destination.chainId}`);
    }
    return { to: destination.normalizeAddress(tx.to) as Address, value: BigInt(tx.value ?? '0'), data: (tx.data ?? '0x') as Hex };
  });
}
