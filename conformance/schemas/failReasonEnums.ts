import { failReasonValues, refundFailReasonValues } from './failReasonValues';

/** SPEC §7.3: every `failReason` value (`N/A` included: the status lookup and webhooks report it on non-failure statuses). */
export const FAIL_REASONS = failReasonValues;

/** SPEC §7.4: every `refundFailReason` value, and `N/A` as status and webhook payloads report it. */
export const REFUND_FAIL_REASONS = [...refundFailReasonValues, 'N/A'] as const;

export function isFailReason(value: unknown): boolean {
  return typeof value === 'string' && (FAIL_REASONS as readonly string[]).includes(value);
}

export function isRefundFailReason(value: unknown): boolean {
  return typeof value === 'string' && (REFUND_FAIL_REASONS as readonly string[]).includes(value);
}
