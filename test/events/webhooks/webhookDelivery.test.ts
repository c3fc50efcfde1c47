// covers: limit:webhook retries @ webhook delivery, limit:webhook endpoints @ webhook configuration, status:waiting
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator';
import { getJson } from '../../support/bridgeClient';
import { startTestSimulator } from '../../support/startTestSimulator';
import { isAuthenticWebhook, startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver';
import { deliveriesOf, putWebhook, quoteWithApiKey } from '../../support/webhookFlows';

/** SPEC §6: deliveries of `request.status.updated`, signed, retried on the virtual clock. */
describe('webhook delivery (manual clock)', () => {
  let sim: RunningSimulator;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    sim = await startTestSimulator({ clockMode: 'manual' });
  });
  afterAll(async () => {
    await sim?.stop();
    await receiver?.close();
  });

  /** Moves virtual time and waits for the attempts it started to be answered and logged. */
  async function advance(ms: number): Promise<void> {
    sim.control.clock.advance(ms);
    await sim.control.webhooks.idle();
  }

  it('retries a failing receiver with exponential backoff on the virtual clock until it accepts, then stops', async () => {
    receiver.setStatusCode(500);
    const put = await putWebhook(sim, sim.apiKey, { url: receiver.url, headers: { 'X-Integrator': 'acme' } });
    expect(put).toMatchObject({ status: 200, body: { apiKey: sim.apiKey, enabled: true, url: receiver.url, headers: { 'X-Integrator': 'acme' } } });

    const quote = await quoteWithApiKey(sim, sim.apiKey, { referrer: 'acme-app' });
    const requestId = quote.steps[0]!.requestId as string;
    const t0 = sim.control.clock.now();
    await receiver.waitForMessage(1);
    await sim.control.webhooks.idle();

    // attempts 1..3 fail (500); retries are due 1 s, 2 s, 4 s after each failure
    for (const [retry, wait] of [[1, 1000], [2, 2000], [3, 4000]] as const) {
      await advance(wait - 1);
      expect(receiver.received).toHaveLength(retry);
      if (retry === 3) receiver.setStatusCode(204);
      await advance(1);
      await receiver.waitForMessage(retry + 1);
      await sim.control.webhooks.idle();
    }
    expect(receiver.received.map((r) => r.answeredWith)).toEqual([500, 500, 500, 204]);
    await advance(3_600_000);
    expect(receiver.received).toHaveLength(4);

    const delivery = (await deliveriesOf(sim, requestId))[0]!;
    expect(delivery).toMatchObject({ requestId, apiKey: sim.apiKey, status: 'waiting', state: 'delivered', nextAttemptAt: null, deliveredAt: t0 + 7000 });
    expect(delivery.attempts.map((a) => [a.attempt, a.at - t0, a.statusCode, a.error])).toEqual([
      [1, 0, 500, null],
      [2, 1000, 500, null],
      [3, 3000, 500, null],
      [4, 7000, 204, null],
    ]);

    // the accepted delivery: exactly §6.1, signed per §6.3 at its sending time, with the custom header
    const accepted = receiver.received[3]!;
    const status = (await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body;
    expect(JSON.parse(accepted.body)).toEqual({
      event: 'request.status.updated',
      timestamp: t0,
      data: { ...status, requestId, referrer: 'acme-app', depositAddress: null },
    });
    expect(Object.keys(JSON.parse(accepted.body).data).sort()).toEqual(
      ['status', 'inTxHashes', 'txHashes', 'updatedAt', 'originChainId', 'destinationChainId', 'depositAddress', 'requestId', 'referrer', 'details', 'failReason', 'refundFailReason'].sort(),
    );
    expect(accepted.headers['x-integrator']).toBe('acme');
    expect(accepted.headers['content-type']).toBe('application/json');
    expect(accepted.headers['x-signature-timestamp']).toBe(String((t0 + 7000 - ((t0 + 7000) % 1000)) / 1000));
    const clock = { now: sim.control.clock.now(), toleranceSeconds: 7200 };
    expect(isAuthenticWebhook(accepted, sim.apiKey, clock)).toBe(true);
    expect(isAuthenticWebhook(accepted, 'intentsim_not-the-key', clock)).toBe(false);
    // every attempt carried the same body, each signed at its own sending time
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    expect(receiver.received.every((r) => isAuthenticWebhook(r, sim.apiKey, clock))).toBe(true);
  });

  it('gives up after 10 retries (11 attempts), waiting 1 s, 2 s, … 512 s between them', async () => {
    receiver.setStatusCode(503);
    const before = receiver.received.length;
    const quote = await quoteWithApiKey(sim, sim.apiKey);
    const requestId = quote.steps[0]!.requestId as string;
    const t0 = sim.control.clock.now();
    await receiver.waitForMessage(before + 1);
    await sim.control.webhooks.idle();
    for (let retry = 1; retry <= 10; retry++) {
      await advance(1000 * 2 ** (retry - 1));
      await receiver.waitForMessage(before + 1 + retry);
      await sim.control.webhooks.idle();
    }
    await advance(24 * 3_600_000);
    expect(receiver.received.length - before).toBe(11);
    const delivery = (await deliveriesOf(sim, requestId))[0]!;
    expect(delivery.state).toBe('failed');
    expect(delivery.nextAttemptAt).toBeNull();
    expect(delivery.attempts.map((a) => a.at - t0)).toEqual([0, 1000, 3000, 7000, 15000, 31000, 63000, 127000, 255000, 511000, 1023000]);
    expect(delivery.attempts.every((a) => a.statusCode === 503)).toBe(true);
  });

  it('logs a network error as a failed attempt and retries it', async () => {
    const gone = await startWebhookReceiver();
    await gone.close();
    const { body: created } = await fetch(`${sim.baseUrl}/admin/api-keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'offline' }) }).then(async (r) => ({ body: (await r.json()) as any }));
    await putWebhook(sim, created.apiKey, { url: gone.url });
    const quote = await quoteWithApiKey(sim, created.apiKey);
    await sim.control.webhooks.idle();
    const delivery = (await deliveriesOf(sim, quote.steps[0]!.requestId))[0]!;
    expect(delivery).toMatchObject({ apiKey: created.apiKey, state: 'pending', nextAttemptAt: delivery.createdAt + 1000 });
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ attempt: 1, statusCode: null });
    expect(delivery.attempts[0]!.error).toEqual(expect.any(String));
  });

  it('sends nothing for requests quoted without a key, or when the endpoint is disabled or removed', async () => {
    receiver.setStatusCode(200);
    const before = receiver.received.length;
    const anonymous = await quoteWithApiKey(sim, undefined);
    await sim.control.webhooks.idle();
    expect(await deliveriesOf(sim, anonymous.steps[0]!.requestId)).toEqual([]);

    await putWebhook(sim, sim.apiKey, { url: receiver.url, enabled: false });
    const disabled = await quoteWithApiKey(sim, sim.apiKey);
    await sim.control.webhooks.idle();
    expect(await deliveriesOf(sim, disabled.steps[0]!.requestId)).toEqual([]);

    const removed = await fetch(`${sim.baseUrl}/admin/api-keys/${sim.apiKey}/webhook`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    const after = await quoteWithApiKey(sim, sim.apiKey);
    await sim.control.webhooks.idle();
    expect(await deliveriesOf(sim, after.steps[0]!.requestId)).toEqual([]);
    expect(receiver.received.length).toBe(before);
  });

  it('one endpoint per key: PUT replaces it; bad settings and unknown keys are 4xx with an errorCode', async () => {
    await putWebhook(sim, sim.apiKey, { url: 'http://127.0.0.1:1/first' });
    await putWebhook(sim, sim.apiKey, { url: 'https://example.invalid/second', headers: {} });
    expect((await getJson(`${sim.baseUrl}/admin/api-keys/${sim.apiKey}/webhook`)).body).toMatchObject({ url: 'https://example.invalid/second', enabled: true, headers: {} });

    const cases: Array<[unknown, string]> = [
      [{ url: 'not a url' }, 'http'],
      [{ url: 'ftp://example.invalid/x' }, 'http'],
      [{ url: 'https://example.invalid', headers: { 'X-Signature-SHA256': 'forged' } }, 'cannot be overridden'],
      [{ url: 'https://example.invalid', headers: { 'bad header': 'x' } }, 'not a valid header name'],
      [{ url: 'https://example.invalid', extra: true }, 'extra'],
    ];
    for (const [settings, mentions] of cases) {
      const answer = await putWebhook(sim, sim.apiKey, settings);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ errorCode: 'INVALID_INPUT_PARAMS' });
      expect(answer.body?.message).toContain(mentions);
    }
    expect(await putWebhook(sim, 'intentsim_unknown', { url: 'https://example.invalid' })).toMatchObject({ status: 404, body: { errorCode: 'API_KEY_NOT_FOUND' } });
    await fetch(`${sim.baseUrl}/admin/api-keys/${sim.apiKey}/webhook`, { method: 'DELETE' });
    expect((await getJson(`${sim.baseUrl}/admin/api-keys/${sim.apiKey}/webhook`)).body).toMatchObject({ errorCode: 'WEBHOOK_NOT_CONFIGURED', statusCode: 404 });
    expect((await getJson(`${sim.baseUrl}/admin/webhook-deliveries?requestId=nope`)).status).toBe(400);
  });
});
