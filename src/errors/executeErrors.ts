import { SimulatorError } from './SimulatorError';

/**
 * SPEC §7.1: a raw call whose simulation reverts. The body carries the decoded error label
 * (`error`), a message, the `requestId` and `details` (top-level frame, innermost reverting frame,
 * full reverting path, decoded revert data), for sponsored and unsponsored calls alike.
 */
export class ExecuteSimulationFailedError extends SimulatorError {
  constructor(label: string, message: string, requestId: string | null, details: Record<string, unknown>) {
    super('EXECUTION_REVERTED', 400, message, { extraBody: { error: label, requestId, details } });
  }
}

/** SPEC §7.3 SPONSOR_BALANCE_TOO_LOW: the API key's sponsor balance cannot pay a subsidized call's gas. */
export class SponsorBalanceTooLowError extends SimulatorError {
  constructor(balanceUsdMicros: bigint, neededUsdMicros: bigint, requestId: string | null) {
    super(
      'SPONSOR_BALANCE_TOO_LOW',
      400,
      `the sponsor balance of this API key (${balanceUsdMicros} USD micros) cannot pay the call's gas (about ${neededUsdMicros} USD micros)`,
      { extraBody: { requestId } },
    );
  }
}

/** A gasless call or signed deposit for a request that is past `waiting` (deposited, executing or settled). */
export class RequestNotWaitingError extends SimulatorError {
  constructor(requestId: string, status: string) {
    super('REQUEST_NOT_WAITING', 409, `request ${requestId} is ${status}: only a request still waiting for its deposit can be executed`, {
      extraBody: { requestId },
    });
  }
}

/** A gasless call names a chain other than its request's origin chain. */
export class ExecuteChainMismatchError extends SimulatorError {
  constructor(requestId: string, chainId: number, originChainId: number) {
    super('DEPOSIT_CHAIN_MISMATCH', 400, `request ${requestId} deposits on chain ${originChainId}, not on chain ${chainId}`, { extraBody: { requestId } });
  }
}

/** `POST /execute/permits`: the request's quote asked for no deposit by signature, or its currency takes none. */
export class PermitNotQuotedError extends SimulatorError {
  constructor(requestId: string, why: string) {
    super('INVALID_INPUT_PARAMS', 400, `request ${requestId} cannot be deposited by signature: ${why}`, { extraBody: { requestId } });
  }
}
