import type { ChainAdapter } from '../chains/ChainAdapter';
import { readSolverInventory } from '../lookups/readSolverInventory';
import type { SimulatorChainSummary } from './runningSimulator';
import { describedForClient } from '../config/clientChainUrl';

/** What a started simulator says of each chain: its name, kind, RPC URL (at `chainHostname`, when given: clientChainUrl), funded accounts and the solver's holdings at start. */
export async function summarizeChains(chains: readonly ChainAdapter[], chainHostname: string | undefined): Promise<SimulatorChainSummary[]> {
  const inventories = await Promise.all(chains.map((chain) => readSolverInventory(chain)));
  return chains.map((chain, index) => {
    const described = describedForClient(chain.describe(), chainHostname);
    return {
      id: chain.chainId,
      name: described.name,
      vmType: chain.vmType,
      rpcUrl: described.httpRpcUrl,
      ...(described.fundedAccounts ? { accounts: described.fundedAccounts } : {}),
      solverInventory: inventories[index]!,
    };
  });
}
