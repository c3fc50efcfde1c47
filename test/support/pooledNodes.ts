import { inject } from 'vitest';

/** This worker's pooled chains (test/support/workerChains.globalSetup.ts): id and RPC URL of each. */
export function pooledNodes(): Array<{ id: number; rpcUrl: string }> {
  const pool = inject('workerChains');
  const worker = process.env.VITEST_POOL_ID ?? '1';
  const chains = pool[worker] ?? pool['1'];
  if (!chains) throw new Error(`no pooled chains for worker ${worker}`);
  return chains;
}

/**
 * This worker's pooled chains as simulator chain configs (attached by URL, reset to genesis on
 * attach): all of them, or those with the given ids. Tests of a non-EVM chain add theirs beside.
 */
export function pooledChains(ids?: readonly number[]): Array<{ id: number; rpcUrl: string; resetOnStart: true }> {
  return pooledNodes()
    .filter((chain) => ids === undefined || ids.includes(chain.id))
    .map((chain) => ({ id: chain.id, rpcUrl: chain.rpcUrl, resetOnStart: true }));
}
