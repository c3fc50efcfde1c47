import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWebhookReceiver } from '../../../src/index';
import { startVerifyingWebhookReceiver, startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver';

const BIN = fileURLToPath(new URL('../../../bin/intentsim.js', import.meta.url));
const API_KEY = 'intentsim_receiver-under-test';

/** `intentsim webhook-check`: a receiver must accept only the correctly signed delivery (SPEC §6.3). */
describe('webhook-check', () => {
  let correct: WebhookReceiver;
  let naive: WebhookReceiver;
  beforeAll(async () => {
    correct = await startVerifyingWebhookReceiver(API_KEY);
    naive = await startWebhookReceiver(() => 200);
  });
  afterAll(async () => {
    await correct?.close();
    await naive?.close();
  });

  it('passes a receiver that verifies with verifyWebhookSignature', async () => {
    const report = await checkWebhookReceiver({ url: correct.url, apiKey: API_KEY });
    expect(report.ok).toBe(true);
    expect(report.results.filter((r) => r.accepted).map((r) => r.name)).toEqual(['valid']);
    expect(report.results.map((r) => r.name)).toEqual([
      'valid',
      'tampered-body',
      'wrong-key',
      'stale-timestamp',
      'future-timestamp',
      'timestamp-swapped',
      'missing-signature',
      'missing-timestamp',
      'malformed-timestamp',
      'truncated-signature',
      'non-hex-signature',
      'empty-signature',
    ]);
    expect(report.results.filter((r) => !r.accepted).every((r) => r.statusCode === 401)).toBe(true);
  });

  it('fails a receiver that accepts everything, naming each forgery it let through', async () => {
    const report = await checkWebhookReceiver({ url: naive.url, apiKey: API_KEY });
    expect(report.ok).toBe(false);
    expect(report.results.find((r) => r.name === 'valid')).toMatchObject({ accepted: true, correct: true });
    expect(report.results.filter((r) => !r.correct)).toHaveLength(report.results.length - 1);
  });

  it('fails when the receiver cannot be reached', async () => {
    const gone = await startWebhookReceiver();
    await gone.close();
    const report = await checkWebhookReceiver({ url: gone.url, apiKey: API_KEY });
    expect(report.ok).toBe(false);
    expect(report.results[0]).toMatchObject({ name: 'valid', statusCode: null, accepted: false });
  });

  it('the CLI exits 0 for the correct receiver and 1 for the naive one', async () => {
    // asynchronously: the receivers answer from this process
    const run = (url: string) =>
      new Promise<{ status: number | null; stdout: string }>((resolve) => {
        execFile(process.execPath, [BIN, 'webhook-check', '--url', url, '--api-key', API_KEY], { encoding: 'utf8', timeout: 60_000 }, (error, stdout) => {
          resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout });
        });
      });
    const good = await run(correct.url);
    expect(good.stdout).toContain('PASS');
    expect(good.status).toBe(0);
    const bad = await run(naive.url);
    expect(bad.stdout).toContain('FAIL');
    expect(bad.stdout).toMatch(/BAD tampered-body/);
    expect(bad.status).toBe(1);
  });
});
