import { ChainError } from '../errors/IntentsimError';

/**
 * The node refused the relayer's transaction before taking it (SPEC §7.2
 * TRANSACTION_SUBMISSION_FAILED for a gasless `/execute` call: no transaction hash exists).
 */
export class RelayBroadcastRefusedError extends ChainError {
  constructor(
    readonly chainId: number,
    readonly reason: string,
    cause: unknown,
  ) {
    super(`chain ${chainId} refused the relayer's transaction: ${reason}`, { cause });
  }
}
