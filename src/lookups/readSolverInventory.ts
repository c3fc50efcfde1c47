import type { ChainAdapter } from '../chains/ChainAdapter';
import { readSolverLiquidity } from './readSolverLiquidity';

/**
 * The solver's inventory the routes pay from on a chain: its native currency and USDC, read from
 * the chain now (the start summary prints it; `GET /chains/liquidity` lists every currency).
 */
export async function readSolverInventory(chain: ChainAdapter): Promise<Array<{ symbol: string; address: string; decimals: number; balance: string }>> {
  const native = chain.describe().nativeCurrency;
  const liquidity = await readSolverLiquidity(chain);
  return liquidity
    .filter((entry) => entry.address === native.address || entry.symbol === 'USDC')
    .map(({ symbol, address, decimals, balance }) => ({ symbol, address, decimals, balance }));
}
