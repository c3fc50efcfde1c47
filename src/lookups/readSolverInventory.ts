import type { ChainAdapter } from '../chains/ChainAdapter';

/**
 * The solver's inventory the routes pay from on a chain: its native currency and USDC, read from
 * the chain now (the start summary prints it; `GET /chains/liquidity` lists every currency).
 */
export async function readSolverInventory(chain: ChainAdapter): Promise<Array<{ symbol: string; address: string; decimals: number; balance: string }>> {
  const described = chain.describe();
  const usdc = described.erc20Currencies.find((currency) => currency.symbol === 'USDC' && currency.address !== described.nativeCurrency.address);
  const currencies = [described.nativeCurrency, ...(usdc ? [usdc] : [])];
  const balances = await Promise.all(currencies.map((currency) => chain.balanceOf(described.solverAddress, currency)));
  return currencies.map((currency, index) => ({ symbol: currency.symbol, address: currency.address, decimals: currency.decimals, balance: balances[index]!.toString() }));
}
