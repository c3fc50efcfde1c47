import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkWebhookSignature, signWebhookBody, verifyWebhookSignature } from '../../../src/index';

/** SPEC §6.3: hex HMAC-SHA256 keyed with the API key over `${timestamp}.${body}`. */
describe('webhook signatures', () => {
  const apiKey = 'intentsim_0123456789abcdef';
  const body = '{"event":"request.status.updated","timestamp":1700000000000,"data":{"status":"success"}}';
  const now = 1_700_000_000_000;
  const timestamp = String(now / 1000);
  const signature = signWebhookBody({ body, timestamp, apiKey });

  it('is the hex HMAC-SHA256 of timestamp.body keyed with the API key', () => {
    expect(signature).toBe(createHmac('sha256', apiKey).update(`${timestamp}.${body}`).digest('hex'));
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('verifies the authentic delivery, from a string or a Buffer body, and with an upper-case signature', () => {
    expect(verifyWebhookSignature({ body, timestamp, signature, apiKey, now })).toBe(true);
    expect(verifyWebhookSignature({ body: Buffer.from(body), timestamp, signature: signature.toUpperCase(), apiKey, now })).toBe(true);
  });

  it.each([
    ['tampered body', { body: body.replace('success', 'refund') }, 'signature-mismatch'],
    ['wrong key', { apiKey: `${apiKey}x` }, 'signature-mismatch'],
    ['stale timestamp', { now: now + 301_000 }, 'stale-timestamp'],
    ['future timestamp', { now: now - 301_000 }, 'stale-timestamp'],
    ['missing timestamp', { timestamp: undefined }, 'missing-timestamp'],
    ['malformed timestamp', { timestamp: `${timestamp}.5` }, 'malformed-timestamp'],
    ['missing signature', { signature: null }, 'missing-signature'],
    ['non-hex signature', { signature: 'g'.repeat(64) }, 'malformed-signature'],
    ['short signature', { signature: signature.slice(0, 62) }, 'malformed-signature'],
    ['long signature', { signature: `${signature}00` }, 'malformed-signature'],
  ] as const)('refuses a %s', (_name, change, reason) => {
    expect(checkWebhookSignature({ body, timestamp, signature, apiKey, now, ...change })).toEqual({ valid: false, reason });
  });

  it('honours a custom tolerance', () => {
    expect(verifyWebhookSignature({ body, timestamp, signature, apiKey, now: now + 3_600_000, toleranceSeconds: 3600 })).toBe(true);
    expect(verifyWebhookSignature({ body, timestamp, signature, apiKey, now: now + 3_601_000, toleranceSeconds: 3600 })).toBe(false);
  });

  it('accepts no signature but the right one (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{64}$/), (forged) => {
        fc.pre(forged !== signature);
        return !verifyWebhookSignature({ body, timestamp, signature: forged, apiKey, now });
      }),
    );
  });
});
