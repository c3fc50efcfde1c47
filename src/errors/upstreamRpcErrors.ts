import { RpcError } from 'viem';
import { RequestTimedOutError, RpcHttpError } from './quoteErrors';
import type { SimulatorError } from './SimulatorError';

/** A JSON-RPC code no node uses and viem neither maps nor retries: the quote answers at once. */
const QUOTE_RPC_FAULT_CODE = -32097;

/**
 * A chain RPC call of a quote that timed out or failed in transport (or by an admin fault).
 * A viem RpcError, so viem passes it through as is, without retrying; mapped to §7.1 by
 * `upstreamRpcErrorOf`.
 */
export class QuoteRpcFault extends RpcError {
  constructor(
    readonly kind: 'timeout' | 'http',
    readonly chainId: number,
    readonly method: string,
    cause: Error,
  ) {
    super(cause, {
      code: QUOTE_RPC_FAULT_CODE,
      shortMessage: kind === 'timeout' ? `chain ${chainId} RPC ${method} timed out` : `chain ${chainId} RPC ${method} failed: ${cause.message}`,
    });
  }
}

/**
 * SPEC §7.1, §9 (2026-06-05): a transient upstream RPC failure during a quote answers
 * REQUEST_TIMED_OUT (timeout) or RPC_HTTP_ERROR (anything else), both retryable, instead of a
 * 500. Looks through the cause chain (viem wraps transport errors in its action errors).
 */
export function upstreamRpcErrorOf(error: unknown): SimulatorError | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 12; current = current.cause, depth++) {
    if (current instanceof QuoteRpcFault) {
      const message = `${current.shortMessage}; retry the quote`;
      return current.kind === 'timeout' ? new RequestTimedOutError(message, { cause: error }) : new RpcHttpError(message, { cause: error });
    }
  }
  return undefined;
}
