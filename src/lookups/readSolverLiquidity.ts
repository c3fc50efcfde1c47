import type { ChainAdapter } from '../chains/ChainAdapter';
import { currencyGroupId } from '../domain/chain/currencySearch';
import { formatUsd, usdMicrosOf } from '../domain/money/usdValue';

/** `GET /chains/liquidity`: the solver's balance of each currency of the chain, read from the chain now. */
export async function readSolverLiquidity(chain: ChainAdapter) {
  const described = chain.describe();
  const currencies = [described.nativeCurrency, ...described.erc20Currencies];
  const balances = await Promise.all(currencies.map((currency) => chain.balanceOf(described.solverAddress, currency)));
  return currencies.map((currency, index) => ({
    chainId: chain.chainId,
    currencyId: currencyGroupId(currency),
    symbol: currency.symbol,
    address: currency.address,
    decimals: currency.decimals,
    balance: balances[index]!.toString(),
    amountUsd: formatUsd(usdMicrosOf(balances[index]!, currency)),
  }));
}
