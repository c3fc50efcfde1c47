import { inject } from 'vitest';

/** This worker's pooled chains (test/support/workerChains.globalSetup.ts): id and RPC URL of each. */
export function pooledNodes(): Array<{ id: number; rpcUrl: string }> {
  const pool = inject('workerChains');
  const worker = process.env.VITEST_POOL_ID ?? '1';
  const chains = pool[worker] ?? pool['1'];
  if (!chains) throw new Error(`no pooled chains for worker ${worker}`);
  return chains;
}
