import { describe, expect, it } from 'vitest';
import { expectedWebhookSignature, webhookSignatureMatches } from '../../conformance/webhookSignature';
import { signWebhookBody } from '../../src/events/webhooks/webhookSignature';

const apiKey = 'intentsim_test_key';
const body = Buffer.from('{"event":"request.status.updated","data":{"status":"success"}}');

describe('the suite’s own §6.3 verification', () => {
  it('agrees with the simulator’s signer on the HMAC of "timestamp.body"', () => {
    expect(expectedWebhookSignature(apiKey, '1767225600', body)).toBe(signWebhookBody({ apiKey, timestamp: 1767225600, body: body.toString('utf8') }));
  });

  it('accepts the right signature in either case, and refuses a changed body, another key or timestamp, and malformed signatures', () => {
    const signature = expectedWebhookSignature(apiKey, '1767225600', body);
    expect(webhookSignatureMatches(apiKey, '1767225600', body, signature)).toBe(true);
    expect(webhookSignatureMatches(apiKey, '1767225600', body, signature.toUpperCase())).toBe(true);
    expect(webhookSignatureMatches(apiKey, '1767225600', Buffer.concat([body, Buffer.from(' ')]), signature)).toBe(false);
    expect(webhookSignatureMatches('another_key', '1767225600', body, signature)).toBe(false);
    expect(webhookSignatureMatches(apiKey, '1767225601', body, signature)).toBe(false);
    expect(webhookSignatureMatches(apiKey, '1767225600', body, signature.slice(0, 62))).toBe(false);
    expect(webhookSignatureMatches(apiKey, '1767225600', body, `${signature}00`)).toBe(false);
    expect(webhookSignatureMatches(apiKey, '1767225600', body, 'z'.repeat(64))).toBe(false);
    expect(webhookSignatureMatches(apiKey, '1767225600', body, '')).toBe(false);
  });
});
