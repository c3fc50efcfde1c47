import { SimulatorError, type SimulatorErrorOptions } from './SimulatorError';

/** SPEC §7.1: quote errors (`POST /quote`, `POST /quote/v2`, `POST /price`), 400 unless stated. */
export class InvalidAddressError extends SimulatorError {
  constructor(message: string, options?: SimulatorErrorOptions) {
    super('INVALID_ADDRESS', 400, message, options);
  }
}

export class InvalidRecipientError extends SimulatorError {
  constructor(message: string, options?: SimulatorErrorOptions) {
    super('INVALID_RECIPIENT', 400, message, options);
  }
}

export class InvalidSlippageToleranceError extends SimulatorError {
  constructor(field: string, value: unknown) {
    super(
      'INVALID_SLIPPAGE_TOLERANCE',
      400,
      `${field} must be an integer string of basis points between 0 and 10000 (got ${JSON.stringify(value)})`,
    );
  }
}

export class AmountTooLowError extends SimulatorError {
  constructor(message: string, options?: SimulatorErrorOptions) {
    super('AMOUNT_TOO_LOW', 400, message, options);
  }
}

export class DestinationTxFailedError extends SimulatorError {
  constructor(message: string, options?: SimulatorErrorOptions) {
    super('DESTINATION_TX_FAILED', 400, message, options);
  }
}

export class RequestTimedOutError extends SimulatorError {
  constructor(message: string, options?: SimulatorErrorOptions) {
    super('REQUEST_TIMED_OUT', 400, message, options);
  }
}

export class RpcHttpError extends SimulatorError {
  constructor(message: string, options?: SimulatorErrorOptions) {
    super('RPC_HTTP_ERROR', 400, message, options);
  }
}

/** Not in §7.1: a chain id the simulator does not run. */
export class UnsupportedChainError extends SimulatorError {
  constructor(chainId: number, role: 'origin' | 'destination') {
    super('UNSUPPORTED_CHAIN', 400, `${role} chain ${chainId} is not supported by this simulator`);
  }
}

/** Not in §7.1: a currency the simulator does not know on that chain. */
export class UnsupportedCurrencyError extends SimulatorError {
  constructor(currency: string, chainId: number) {
    super('UNSUPPORTED_CURRENCY', 400, `currency ${currency} is not supported on chain ${chainId}`);
  }
}

/** Not in §7.1: a pair of currencies with no route in this simulator. */
/**
 * The solver's inventory on the destination cannot pay this fill (the fill's simulation runs out
 * of the solver's native or token balance). Named after the §7.3 value; the SPEC gives no quote
 * error for it.
 */
export class SolverCapacityExceededError extends SimulatorError {
  constructor(message: string) {
    super('SOLVER_CAPACITY_EXCEEDED', 400, message);
  }
}

export class NoRouteError extends SimulatorError {
  constructor(message: string) {
    super('NO_SWAP_ROUTES_FOUND', 400, message);
  }
}

/** The amount leaves nothing once fees are paid. */
export class AmountTooLowForFeesError extends SimulatorError {
  constructor(message: string) {
    super('AMOUNT_TOO_LOW', 400, message);
  }
}

/** Not in §7.1: the pool cannot deliver the requested output at all. */
export class InsufficientLiquidityError extends SimulatorError {
  constructor(message: string) {
    super('INSUFFICIENT_POOL_LIQUIDITY', 400, message);
  }
}

/**
 * SPEC §4.6, §8: an SVM-origin quote whose transaction would pass the quote-time size limit (1232
 * bytes less the 60 reserved for compute-budget instructions). §7.1 names no errorCode for it;
 * this is the name §7.2 gives a transaction over a chain's size limit.
 */
export class TransactionTooLargeError extends SimulatorError {
  constructor(message: string) {
    super('TRANSACTION_TOO_LARGE', 400, message);
  }
}
