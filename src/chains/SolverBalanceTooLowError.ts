import { ChainError } from '../errors/IntentsimError';

/**
 * The solver's own funds on a chain cannot make a payment (SPEC §7.2 SOLVER_BALANCE_TOO_LOW: "the
 * solver's source-side balance (or UTXOs) was insufficient to build or send the fill"): thrown by
 * a chain that has to build the payment from the solver's coins before anything is signed.
 */
export class SolverBalanceTooLowError extends ChainError {
  constructor(
    readonly chainId: number,
    message: string,
  ) {
    super(`chain ${chainId}: ${message}`);
  }
}
