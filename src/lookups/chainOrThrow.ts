import type { ChainAdapter } from '../chains/ChainAdapter';
import { LookupChainNotSupportedError } from '../errors/lookupErrors';

/** The chain a look-up names, or a 400 naming the chains this simulator runs. */
export function chainOrThrow(chains: ReadonlyMap<number, ChainAdapter>, chainId: number): ChainAdapter {
  const chain = chains.get(chainId);
  if (!chain) throw new LookupChainNotSupportedError(chainId, [...chains.keys()]);
  return chain;
}
