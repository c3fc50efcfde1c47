import { createHmac, timingSafeEqual } from 'node:crypto';

/** SPEC §6.3 headers of every webhook request, lower case as node:http gives them. */
export const SIGNATURE_TIMESTAMP_HEADER = 'x-signature-timestamp';
export const SIGNATURE_HEADER = 'x-signature-sha256';

/**
 * SPEC §6.3: the expected signature is the hex HMAC-SHA256, keyed with the API key, of the
 * timestamp, a full stop, and the request body (its exact bytes).
 */
export function expectedWebhookSignature(apiKey: string, timestamp: string, rawBody: Buffer): string {
  return createHmac('sha256', apiKey).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** SPEC §6.3 verification as a receiver does it: hex, length-checked, compared in constant time. */
export function webhookSignatureMatches(apiKey: string, timestamp: string, rawBody: Buffer, signature: string): boolean {
  if (!/^[0-9a-fA-F]+$/.test(signature)) return false;
  const expected = Buffer.from(expectedWebhookSignature(apiKey, timestamp, rawBody), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
