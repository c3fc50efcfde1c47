// covers: limit:webhook retries @ webhook delivery
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextWebhookAttemptAt, WEBHOOK_MAX_RETRIES, webhookRetryDelayMs } from '../../../src/domain/webhook/webhookRetrySchedule';

describe('webhook retry schedule (SPEC §6.2: up to 10 retries, exponential backoff)', () => {
  it('doubles from the base: 1 s, 2 s, … 512 s by default', () => {
    expect(Array.from({ length: WEBHOOK_MAX_RETRIES }, (_, i) => webhookRetryDelayMs(i + 1))).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512].map((s) => s * 1000));
    expect(webhookRetryDelayMs(3, 250)).toBe(1000);
  });

  it('has no retry 0 or 11', () => {
    expect(() => webhookRetryDelayMs(0)).toThrow(RangeError);
    expect(() => webhookRetryDelayMs(11)).toThrow(RangeError);
  });

  it('schedules the next attempt after each of the first 11 attempts but the last', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 1, max: 60_000 }), (attemptsMade, lastAttemptAt, baseMs) => {
        const next = nextWebhookAttemptAt({ attemptsMade, lastAttemptAt, baseMs });
        if (attemptsMade > WEBHOOK_MAX_RETRIES) return next === null;
        return next === lastAttemptAt + baseMs * 2 ** (attemptsMade - 1);
      }),
    );
  });
});
