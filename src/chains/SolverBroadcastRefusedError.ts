import { ChainError } from '../errors/IntentsimError';

/**
 * The node refused a solver transaction before taking it (SPEC §7.2 TRANSACTION_SUBMISSION_FAILED:
 * "pre-broadcast rejection; no transaction hash exists"): a JSON-RPC error answer to the send.
 * Nothing of it is kept, so its nonce is free for the next transaction.
 */
export class SolverBroadcastRefusedError extends ChainError {
  constructor(
    readonly chainId: number,
    readonly reason: string,
    cause: unknown,
  ) {
    super(`chain ${chainId} refused the solver's transaction: ${reason}`, { cause });
  }
}
