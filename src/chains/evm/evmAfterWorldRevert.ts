import type { TestClient } from 'viem';
import type { WorldRevertSync } from '../ChainAdapter';
import type { EvmSolverWallet } from './EvmSolverWallet';

/**
 * An EVM chain after a world revert. Anvil's `evm_revert` leaves its pool as it was, so a
 * transaction sent after the snapshot (a fill the solver of the later world sent) would still be
 * mined: the pool is emptied, the solver's next nonce read again, the chain indexed (`catchUp`),
 * and the solver's transactions the store put back holds unsettled sent again (a user's
 * transaction that waited in the pool is gone). The pool is emptied and the chain indexed at once
 * (neither changes what the other reads), and nothing is sent before `sendAfter` settles. The
 * mining mode of the snapshot (`restoreMining`) comes back once the pool is empty (automine
 * switched on mines what waits there) and before the solver sends again (what it sends waits in
 * the pool, or is mined, as at the snapshot).
 */
export async function evmAfterWorldRevert(
  chain: { chainId: number; testClient: TestClient; wallet: EvmSolverWallet; catchUp: () => Promise<void>; log?: (message: string) => void },
  { sendAfter, restoreMining }: Pick<WorldRevertSync, 'sendAfter' | 'restoreMining'>,
): Promise<void> {
  chain.wallet.forgetNonce();
  const emptyPool = chain.testClient
    .request({ method: 'anvil_dropAllTransactions' } as never)
    .catch((error: unknown) => chain.log?.(`chain ${chain.chainId}: the pool could not be emptied after a world revert: ${error instanceof Error ? error.message : String(error)}`));
  await Promise.all([emptyPool, chain.catchUp(), sendAfter?.catch(() => undefined)]);
  await restoreMining?.();
  await chain.wallet.resumeUnsettled();
}
