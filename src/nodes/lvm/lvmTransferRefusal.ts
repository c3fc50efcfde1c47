import { ChainError } from '../../errors/IntentsimError';

/** Why the exchange refuses a transfer or a key: the API's `errorCode` (its HTTP status: `LVM_REFUSAL_STATUS`, else 400). */
export type LvmRefusal =
  | 'UNKNOWN_ACCOUNT'
  | 'NOT_A_MASTER_ACCOUNT'
  | 'UNKNOWN_ASSET'
  | 'INVALID_ROUTE'
  | 'INVALID_AMOUNT'
  | 'FEE_TOO_LOW'
  | 'INSUFFICIENT_BALANCE'
  | 'INVALID_NONCE'
  | 'INVALID_MEMO'
  | 'SAME_ACCOUNT_AND_ROUTE'
  | 'INVALID_API_KEY'
  | 'API_KEY_NOT_FOR_ACCOUNT'
  | 'ACCOUNT_PAUSED';

/** The refusals that are not a plain 400: a key the exchange does not take (401), a key or an account not allowed to act (403). */
export const LVM_REFUSAL_STATUS: Partial<Record<LvmRefusal, number>> = { INVALID_API_KEY: 401, API_KEY_NOT_FOR_ACCOUNT: 403, ACCOUNT_PAUSED: 403 };

/** A transfer the exchange refuses: nothing moved. `reason` names why (the API's errorCode). */
export class LvmTransferRefusedError extends ChainError {
  constructor(
    readonly reason: LvmRefusal,
    message: string,
  ) {
    super(message);
  }
}
