import { ChainError } from '../../errors/IntentsimError';

/**
 * A JSON-RPC error as Bitcoin Core answers it (`{ code, message }`), with its codes
 * (src/rpc/protocol.h): the ledger throws these, the JSON-RPC server answers them as they are.
 */
export class BvmRpcError extends ChainError {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Bitcoin Core's RPC error codes the ledger and its server use. */
export const BVM_RPC_ERRORS = {
  /** RPC_MISC_ERROR */
  misc: -1,
  /** RPC_TYPE_ERROR */
  type: -3,
  /** RPC_INVALID_ADDRESS_OR_KEY: unknown txid/block, bad address */
  invalidAddressOrKey: -5,
  /** RPC_INVALID_PARAMETER */
  invalidParameter: -8,
  /** RPC_DESERIALIZATION_ERROR: a transaction that does not decode */
  deserialization: -22,
  /** RPC_VERIFY_ERROR: missing or spent inputs, max fee exceeded */
  verify: -25,
  /** RPC_VERIFY_REJECTED: refused by the mempool's policy or consensus checks */
  verifyRejected: -26,
  /** RPC_VERIFY_ALREADY_IN_CHAIN */
  alreadyInChain: -27,
  /** RPC_METHOD_NOT_FOUND */
  methodNotFound: -32601,
  /** RPC_INVALID_REQUEST */
  invalidRequest: -32600,
  /** RPC_PARSE_ERROR */
  parse: -32700,
} as const;

/** A transaction the mempool refuses (`sendrawtransaction`'s -26 answers). */
export function rejected(reason: string): BvmRpcError {
  return new BvmRpcError(BVM_RPC_ERRORS.verifyRejected, reason);
}
