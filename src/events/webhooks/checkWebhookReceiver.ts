import { keccak256, toHex } from 'viem';
import { buildWebhookPayload } from '../../domain/webhook/webhookPayload';
import { SIGNATURE_HEADER, SIGNATURE_TIMESTAMP_HEADER, signWebhookBody } from './webhookSignature';

/** One delivery `webhook-check` sends, and whether a correct receiver accepts it. */
export interface WebhookCheckCase {
  name: string;
  description: string;
  shouldAccept: boolean;
  headers: Record<string, string>;
  body: string;
}

export interface WebhookCheckResult {
  name: string;
  description: string;
  shouldAccept: boolean;
  statusCode: number | null;
  error: string | null;
  /** The receiver answered 2xx. */
  accepted: boolean;
  /** accepted === shouldAccept */
  correct: boolean;
}

export interface WebhookCheckReport {
  url: string;
  results: WebhookCheckResult[];
  /** The receiver accepted the valid delivery and refused every other one. */
  ok: boolean;
}

export interface CheckWebhookReceiverParameters {
  url: string;
  /** The API key the receiver verifies with (the HMAC secret, SPEC §6.3). */
  apiKey: string;
  /** Unix milliseconds to sign with (default: Date.now(), the receiver's wall clock). */
  now?: number;
  /** Real milliseconds to wait for each answer (default 10 s). */
  timeoutMs?: number;
}

/** A realistic §6.1 body: a finished bridge. */
function sampleBody(nowMs: number): string {
  const requestId = keccak256(toHex('intentsim webhook-check'));
  return JSON.stringify(
    buildWebhookPayload(
      {
        status: 'success',
        inTxHashes: [keccak256(toHex('webhook-check deposit'))],
        txHashes: [keccak256(toHex('webhook-check fill'))],
        updatedAt: nowMs,
        originChainId: 1,
        destinationChainId: 8453,
        details: null,
        failReason: 'N/A',
        refundFailReason: 'N/A',
        requestId,
        referrer: 'intentsim-webhook-check',
        depositAddress: null,
      },
      nowMs,
    ),
  );
}

/**
 * The deliveries `intentsim webhook-check` sends: one correctly signed (SPEC §6.3), and forgeries
 * a receiver must refuse: a tampered body, a wrong key, stale and future timestamps, and missing
 * or malformed headers.
 */
export function buildWebhookCheckCases(apiKey: string, nowMs: number): WebhookCheckCase[] {
  const body = sampleBody(nowMs);
  const now = Math.floor(nowMs / 1000);
  const signed = (timestamp: number | string, key = apiKey, signedBody = body) => ({
    [SIGNATURE_TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: signWebhookBody({ body: signedBody, timestamp, apiKey: key }),
  });
  const valid = signed(now);
  const tamperedBody = body.replace('"status":"success"', '"status":"refund"');
  return [
    { name: 'valid', description: 'correctly signed, current timestamp', shouldAccept: true, headers: valid, body },
    { name: 'tampered-body', description: 'body changed after signing', shouldAccept: false, headers: valid, body: tamperedBody },
    { name: 'wrong-key', description: 'signed with another API key', shouldAccept: false, headers: signed(now, `${apiKey}-wrong`), body },
    { name: 'stale-timestamp', description: 'correctly signed one hour ago (a replay)', shouldAccept: false, headers: signed(now - 3600), body },
    { name: 'future-timestamp', description: 'correctly signed one hour ahead', shouldAccept: false, headers: signed(now + 3600), body },
    { name: 'timestamp-swapped', description: 'signature of another timestamp than the header', shouldAccept: false, headers: { ...valid, [SIGNATURE_TIMESTAMP_HEADER]: String(now - 1) }, body },
    { name: 'missing-signature', description: 'no X-Signature-SHA256 header', shouldAccept: false, headers: { [SIGNATURE_TIMESTAMP_HEADER]: String(now) }, body },
    { name: 'missing-timestamp', description: 'no X-Signature-Timestamp header', shouldAccept: false, headers: { [SIGNATURE_HEADER]: valid[SIGNATURE_HEADER] }, body },
    { name: 'malformed-timestamp', description: 'X-Signature-Timestamp is not a number', shouldAccept: false, headers: signed(`${now}abc`), body },
    { name: 'truncated-signature', description: 'signature one hex digit short', shouldAccept: false, headers: { ...valid, [SIGNATURE_HEADER]: valid[SIGNATURE_HEADER].slice(0, -1) }, body },
    { name: 'non-hex-signature', description: 'signature is not hex', shouldAccept: false, headers: { ...valid, [SIGNATURE_HEADER]: 'z'.repeat(64) }, body },
    { name: 'empty-signature', description: 'X-Signature-SHA256 is empty', shouldAccept: false, headers: { ...valid, [SIGNATURE_HEADER]: '' }, body },
  ];
}

/**
 * Sends every `buildWebhookCheckCases` delivery to an integrator's receiver, one after the
 * other, and reports which it accepted (2xx). The verdict is right only when the receiver
 * accepts the valid delivery and nothing else.
 */
export async function checkWebhookReceiver(params: CheckWebhookReceiverParameters): Promise<WebhookCheckReport> {
  const cases = buildWebhookCheckCases(params.apiKey, params.now ?? Date.now());
  const results: WebhookCheckResult[] = [];
  for (const check of cases) {
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(params.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'intentsim-webhook-check', ...check.headers },
        body: check.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(params.timeoutMs ?? 10_000),
      });
      statusCode = response.status;
      await response.body?.cancel().catch(() => undefined);
    } catch (caught) {
      error = caught instanceof Error ? `${caught.message}${caught.cause instanceof Error ? `: ${caught.cause.message}` : ''}` : String(caught);
    }
    const accepted = statusCode !== null && statusCode >= 200 && statusCode < 300;
    results.push({ name: check.name, description: check.description, shouldAccept: check.shouldAccept, statusCode, error, accepted, correct: accepted === check.shouldAccept });
  }
  return { url: params.url, results, ok: results.every((result) => result.correct) };
}

/** The report as `intentsim webhook-check` prints it. */
export function formatWebhookCheckReport(report: WebhookCheckReport): string {
  const width = Math.max(...report.results.map((result) => result.name.length));
  const lines = [`webhook-check ${report.url}`, ''];
  for (const result of report.results) {
    const answer = result.statusCode !== null ? `HTTP ${result.statusCode}` : `no answer (${result.error})`;
    const verdict = result.correct ? 'ok ' : 'BAD';
    const expected = result.shouldAccept ? 'must accept' : 'must refuse';
    lines.push(`  ${verdict} ${result.name.padEnd(width)}  ${expected}, ${result.accepted ? 'accepted' : 'refused'} (${answer}) — ${result.description}`);
  }
  lines.push('', report.ok ? 'PASS: the receiver accepts only the correctly signed delivery' : 'FAIL: the receiver must accept the correctly signed delivery and refuse every other one', '');
  return lines.join('\n');
}
