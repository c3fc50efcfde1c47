/** SPEC §6.2 / §8: up to 10 retries after the first attempt, with exponential backoff. */
export const WEBHOOK_MAX_RETRIES = 10;

/** The default wait before the first retry; each further retry waits twice as long. */
export const DEFAULT_WEBHOOK_RETRY_BASE_MS = 1_000;

/**
 * The wait before retry number `retry` (1-based): base × 2^(retry − 1), so with the default
 * base 1 s, 2 s, 4 s, … 512 s (about 17 minutes from the first attempt to the last).
 */
export function webhookRetryDelayMs(retry: number, baseMs: number = DEFAULT_WEBHOOK_RETRY_BASE_MS): number {
  if (!Number.isInteger(retry) || retry < 1 || retry > WEBHOOK_MAX_RETRIES) throw new RangeError(`retry must be 1..${WEBHOOK_MAX_RETRIES}, got ${retry}`);
  return baseMs * 2 ** (retry - 1);
}

/**
 * When the next attempt is due after `attemptsMade` failed attempts, the last at `lastAttemptAt`;
 * null once the retries are spent (the delivery has failed for good).
 */
export function nextWebhookAttemptAt(params: { attemptsMade: number; lastAttemptAt: number; baseMs?: number }): number | null {
  const retry = params.attemptsMade;
  if (retry > WEBHOOK_MAX_RETRIES) return null;
  return params.lastAttemptAt + webhookRetryDelayMs(retry, params.baseMs);
}
