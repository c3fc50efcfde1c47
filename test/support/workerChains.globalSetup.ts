import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { DEFAULT_EVM_CHAIN_IDS } from '../../fixtures/chains';
import { createAnvilInstance, type AnvilInstance } from '../../src/chains/evm/AnvilInstance';
import { resolveAnvilBinary } from '../../src/process/resolveAnvilBinary';

/** Chains of one worker: chain id → RPC URL. */
export type WorkerChains = Record<string, Array<{ id: number; rpcUrl: string }>>;

declare module 'vitest' {
  export interface ProvidedContext {
    workerChains: WorkerChains;
    /** A second set per worker, for that worker's shared simulator only (test/support/sharedTestSimulator.ts). */
    sharedSimulatorChains: WorkerChains;
  }
}

/**
 * Starts one set of Anvil chains per test worker, once for the whole run (prool's pool
 * pattern): each test file leases its worker's set, and the simulator resets the nodes to
 * genesis (`anvil_reset`) when it attaches, so files never see each other's state. Each worker
 * also gets a second set that only its shared simulator attaches to (sharedTestSimulator.ts):
 * that simulator keeps its world snapshot across files, which a reset of the first set by another
 * file's simulator would wipe. Teardown here is reliable, unlike in a worker process.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  const logDir = mkdtempSync(join(tmpdir(), 'intentsim-test-chains-'));
  const binaryPath = resolveAnvilBinary({ pathEnv: process.env.PATH ?? '', ...(process.env.INTENTSIM_ANVIL ? { explicitPath: process.env.INTENTSIM_ANVIL } : {}) });
  const instances: AnvilInstance[] = [];
  const startChainSet = (name: string): Promise<Array<{ id: number; rpcUrl: string }>> =>
    Promise.all(
      DEFAULT_EVM_CHAIN_IDS.map(async (id) => {
        const instance = createAnvilInstance({ chainId: id, binaryPath, logFile: join(logDir, `${name}-anvil-${id}.log`) });
        instances.push(instance);
        const endpoints = await instance.start();
        return { id, rpcUrl: endpoints.rpcUrl };
      }),
    );
  const workerChains: WorkerChains = {};
  const sharedSimulatorChains: WorkerChains = {};
  for (let worker = 1; worker <= workers; worker++) {
    [workerChains[String(worker)], sharedSimulatorChains[String(worker)]] = await Promise.all([startChainSet(`worker-${worker}`), startChainSet(`worker-${worker}-shared`)]);
  }
  project.provide('workerChains', workerChains);
  project.provide('sharedSimulatorChains', sharedSimulatorChains);
  return async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    rmSync(logDir, { recursive: true, force: true });
  };
}
