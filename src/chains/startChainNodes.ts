import { join } from 'node:path';
import { chainMetadataFor } from '../../fixtures/chains';
import { resolveAnvilBinary } from '../process/resolveAnvilBinary';
import { anvilBinaryQuery } from './chainAdapterRegistry';
import { createAnvilInstance, type AnvilInstance } from './evm/AnvilInstance';
import { ConfigurationError } from '../errors/IntentsimError';

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
 * Starts one node per chain id (in parallel), not attached to any simulator. A simulator attaches
 * with `chains: [{ id, rpcUrl, resetOnStart: true }]` and resets it to genesis (the scenario
 * runner's pool, like the test workers' pool).
 */
export async function startChainNodes(params: StartChainNodesParameters): Promise<ChainNodes> {
  const instances: AnvilInstance[] = [];
  const stop = async () => {
    await Promise.all(instances.map((instance) => instance.stop().catch(() => undefined)));
  };
  try {
    const chains = await Promise.all(
      params.chainIds.map(async (id) => {
        if (chainMetadataFor(id).vm !== 'evm') throw new ConfigurationError(`chain ${id}: only EVM nodes can be pooled so far`);
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
