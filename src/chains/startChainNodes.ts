import { join } from 'node:path';
import { chainMetadataFor } from '../../fixtures/chains';
import { resolveAnvilBinary } from '../process/resolveAnvilBinary';
import { anvilBinaryQuery } from './chainAdapterRegistry';
import { createAnvilInstance, type AnvilInstance } from './evm/AnvilInstance';

/** Nodes started on their own, for one simulator after another to attach to (a pool). */
export interface ChainNodes {
  chains: Array<{ id: number; rpcUrl: string }>;
  stop(): Promise<void>;
}

export interface StartChainNodesParameters {
  chainIds: readonly number[];
  logDir: string;
  anvilPath?: string | undefined;
  anvilSearchPath?: string | undefined;
}

/**
 * Starts one node per chain id that runs a node (EVM: Anvil), in parallel, not attached to any
 * simulator; the other ids (in-process ledgers) get none and are left out of `chains`. A simulator attaches
 * with `chains: [{ id, rpcUrl, resetOnStart: true }]` and resets it to genesis (the scenario
 * runner's pool, like the test workers' pool).
 */
export async function startChainNodes(params: StartChainNodesParameters): Promise<ChainNodes> {
  const instances: AnvilInstance[] = [];
  const stop = async () => {
    await Promise.all(instances.map((instance) => instance.stop().catch(() => undefined)));
  };
  try {
    // in-process ledgers (SVM, BVM, the exchange) have no node to pool: each simulator builds its own from genesis
    const nodeChainIds = params.chainIds.filter((id) => chainMetadataFor(id).vm === 'evm');
    const chains = await Promise.all(
      nodeChainIds.map(async (id) => {
        const binaryPath = resolveAnvilBinary(anvilBinaryQuery(params));
        const instance = createAnvilInstance({ chainId: id, binaryPath, logFile: join(params.logDir, `anvil-${id}.log`) });
        instances.push(instance);
        const endpoints = await instance.start();
        return { id, rpcUrl: endpoints.rpcUrl };
      }),
    );
    return { chains, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
