import { createHmac, timingSafeEqual } from 'node:crypto';

/** SPEC §6.3 header names. */
export const SIGNATURE_TIMESTAMP_HEADER = 'X-Signature-Timestamp';
export const SIGNATURE_HEADER = 'X-Signature-SHA256';

/** How far a signature timestamp may be from the receiver's clock before it is refused as stale. */
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * SPEC §6.3: hex HMAC-SHA256, keyed with the API key, of `${timestamp}.${body}`. `timestamp`
 * is the value of the X-Signature-Timestamp header (unix seconds), `body` the raw request body.
 */
export function signWebhookBody(params: { body: string; timestamp: number | string; apiKey: string }): string {
  return createHmac('sha256', params.apiKey).update(`${params.timestamp}.${params.body}`).digest('hex');
}

export interface VerifyWebhookSignatureParameters {
  /** The raw request body, exactly as received (not re-serialised JSON). */
  body: string | Buffer;
  /** The X-Signature-Timestamp header (unix seconds). */
  timestamp: string | null | undefined;
  /** The X-Signature-SHA256 header (hex). */
  signature: string | null | undefined;
  /** Your API key: the HMAC secret (SPEC §5.4). */
  apiKey: string;
  /** Refuse timestamps further than this from `now` (default 300 s); replays of old deliveries fail. */
  toleranceSeconds?: number;
  /** The receiver's clock, unix milliseconds (default: Date.now()). */
  now?: number;
}

export type VerifyWebhookSignatureResult =
  | { valid: true }
  | { valid: false; reason: 'missing-timestamp' | 'malformed-timestamp' | 'stale-timestamp' | 'missing-signature' | 'malformed-signature' | 'signature-mismatch' };

/**
 * Checks a webhook delivery as SPEC §6.3 asks a receiver to: the timestamp is present, numeric
 * and recent; the signature is 64 hex characters and equals the expected HMAC, compared in
 * constant time after a length check. Returns why a delivery is refused, so a receiver can log it.
 */
export function checkWebhookSignature(params: VerifyWebhookSignatureParameters): VerifyWebhookSignatureResult {
  const { timestamp, signature } = params;
  if (timestamp === null || timestamp === undefined || timestamp === '') return { valid: false, reason: 'missing-timestamp' };
  if (!/^[0-9]{1,15}$/.test(timestamp)) return { valid: false, reason: 'malformed-timestamp' };
  const nowSeconds = Math.floor((params.now ?? Date.now()) / 1000);
  const tolerance = params.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS;
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) return { valid: false, reason: 'stale-timestamp' };
  if (signature === null || signature === undefined || signature === '') return { valid: false, reason: 'missing-signature' };
  if (!/^[0-9a-fA-F]+$/.test(signature)) return { valid: false, reason: 'malformed-signature' };
  const body = typeof params.body === 'string' ? params.body : params.body.toString('utf8');
  const expectedHex = signWebhookBody({ body, timestamp, apiKey: params.apiKey });
  // length-checked before the constant-time comparison (timingSafeEqual needs equal lengths)
  if (signature.length !== expectedHex.length) return { valid: false, reason: 'malformed-signature' };
  return timingSafeEqual(Buffer.from(signature.toLowerCase(), 'hex'), Buffer.from(expectedHex, 'hex')) ? { valid: true } : { valid: false, reason: 'signature-mismatch' };
}

/** `checkWebhookSignature` as a boolean: true only for an authentic, recent delivery. */
export function verifyWebhookSignature(params: VerifyWebhookSignatureParameters): boolean {
  return checkWebhookSignature(params).valid;
}
