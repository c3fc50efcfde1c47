import type { FailReason } from '../request/requestStatus';
import { failReasonOfErrorName, failReasonOfText } from './failReasonTable';

/**
 * A failure in the chain's own words, as status `details.decodedRevert` shows it and the request
 * record keeps it (SPEC §2.4 "additional context"): JSON-safe, `kind` naming what it is, `label`
 * reading it in one line. EVM: the decoded revert (`customError`, `reasonString`, `panic`,
 * `undecoded`, `noData`, with its data); the other chains describe theirs in the same words
 * (a payer's shortfall as the `customError` `InsufficientFunds`, anything else as a
 * `reasonString` carrying the chain's message).
 */
export interface FailureDetails {
  readonly kind: string;
  readonly label: string;
  readonly [field: string]: unknown;
}

/**
 * Why a fill or refund failed, in simulation or once mined, as any chain reports it: the name it is
 * known by, a message, the §7.3 failReason the chain reads it as (when its table knows one) and
 * the details status shows.
 */
export interface ChainFailure {
  /** EVM: the custom error's name, `Error`, `Panic` or `Reverted`; the others: `InsufficientFunds`, `FillNotSupported`, the chain's error name. */
  errorName: string;
  message: string;
  /** SPEC §7.3: the label this failure gets; undefined when the chain's table does not know it (the caller falls back). */
  failReason?: FailReason;
  details: FailureDetails;
}

/**
 * A failure a chain knows by a name alone (a payer's shortfall: `InsufficientFunds`), in the words
 * status `details` use on every chain: the custom error `name()`, labelled from the §7.3 table by
 * its name.
 */
export function namedFailure(errorName: string, message: string): ChainFailure {
  const failReason = failReasonOfErrorName(errorName);
  return { errorName, message, ...(failReason !== undefined ? { failReason } : {}), details: { kind: 'customError', errorName, args: [], data: '0x', label: `${errorName}()` } };
}

/**
 * A failure the chain tells in a message (a refused transfer, a fill it cannot make), in the words
 * status `details` use on every chain: the reason string `Error("message")`, labelled from the §7.3
 * table by its text.
 */
export function messageFailure(errorName: string, message: string): ChainFailure {
  const failReason = failReasonOfText(message);
  return { errorName, message, ...(failReason !== undefined ? { failReason } : {}), details: { kind: 'reasonString', reason: message, data: '0x', label: `Error(${JSON.stringify(message)})` } };
}
