import type { ChainAdapter } from '../chains/ChainAdapter';
import type { ListedCurrency } from '../domain/chain/currencySearch';

/** Every currency of every chain the simulator runs (the deployed tokens), chains in order, native first. */
export function listChainCurrencies(chains: ReadonlyMap<number, ChainAdapter>): ListedCurrency[] {
  return [...chains.values()].flatMap((chain) => {
    const described = chain.describe();
    return [described.nativeCurrency, ...described.erc20Currencies].map((currency) => ({ currency, vmType: chain.vmType }));
  });
}
