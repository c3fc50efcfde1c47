import type { FailReason } from '../../domain/request/requestStatus';
import { failReasonOfErrorName, failReasonOfText } from '../../domain/fill/failReasonTable';
import type { DecodedRevert } from './decodedRevert';

/**
 * The §7.3 value of a decoded revert (`failReasonTable`): a custom error by its name, else by the
 * first of its arguments whose text the table knows; a reason string by its text. Undefined when
 * the table does not know it (the caller falls back to EXECUTION_REVERTED / TRANSACTION_REVERTED).
 * A revert without data is MISSING_REVERT_DATA; panics are left to the fallback.
 */
export function failReasonOfRevert(revert: DecodedRevert): FailReason | undefined {
  switch (revert.kind) {
    case 'customError':
      return failReasonOfErrorName(revert.errorName) ?? revert.args.map(failReasonOfText).find((reason) => reason !== undefined);
    case 'reasonString':
      return failReasonOfText(revert.reason);
    case 'noData':
      return 'MISSING_REVERT_DATA';
    case 'panic':
    case 'undecoded':
      return undefined;
  }
}
