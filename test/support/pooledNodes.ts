import { inject } from 'vitest';

/**
 * This worker's pooled chains (test/support/workerChains.globalSetup.ts): id and RPC URL of each;
 * `sharedSimulatorChains`: the set only the worker's shared simulator uses (sharedTestSimulator.ts).
 */
export function pooledNodes(set: 'workerChains' | 'sharedSimulatorChains' = 'workerChains'): Array<{ id: number; rpcUrl: string }> {
  const pool = inject(set);
  const worker = process.env.VITEST_POOL_ID ?? '1';
  const chains = pool[worker] ?? pool['1'];
  if (!chains) throw new Error(`no pooled chains for worker ${worker}`);
  return chains;
}

/**
 * This worker's pooled chains as simulator chain configs (attached by URL, reset to genesis on
 * attach): all of them, or those with the given ids. Tests of a non-EVM chain add theirs beside.
 */
export function pooledChains(ids?: readonly number[], set: 'workerChains' | 'sharedSimulatorChains' = 'workerChains'): Array<{ id: number; rpcUrl: string; resetOnStart: true }> {
  return pooledNodes(set)
    .filter((chain) => ids === undefined || ids.includes(chain.id))
    .map((chain) => ({ id: chain.id, rpcUrl: chain.rpcUrl, resetOnStart: true }));
}
