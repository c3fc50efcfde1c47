// covers: limit:webhook retries @ webhook delivery
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator';
import { startTestSimulator } from '../../support/startTestSimulator';
import { isAuthenticWebhook, startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver';
import { deliveriesOf, putWebhook, quoteWithApiKey } from '../../support/webhookFlows';

/** DESIGN: the outbox lives in SQLite, so a restart mid-retry continues the delivery. */
describe('webhook delivery across a restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-webhook-restart-'));
  const dbPath = join(dir, 'sim.db');
  let sim: RunningSimulator | undefined;
  let receiver: WebhookReceiver | undefined;

  afterAll(async () => {
    await sim?.stop();
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a delivery waiting for its retry when the simulator stops is sent once by the next process on the same database', async () => {
    receiver = await startWebhookReceiver();
    receiver.setStatusCode(502);
    sim = await startTestSimulator({ dbPath, clockMode: 'manual' });
    const apiKey = sim.apiKey;
    await putWebhook(sim, apiKey, { url: receiver.url });
    const quote = await quoteWithApiKey(sim, apiKey);
    const requestId = quote.steps[0]!.requestId as string;
    await receiver.waitForMessage(1);
    await sim.control.webhooks.idle();
    const pending = (await deliveriesOf(sim, requestId))[0]!;
    expect(pending).toMatchObject({ state: 'pending', nextAttemptAt: pending.createdAt + 1000 });
    expect(pending.attempts).toHaveLength(1);
    await sim.stop();
    sim = undefined;

    receiver.setStatusCode(200);
    sim = await startTestSimulator({ dbPath, clockMode: 'manual' });
    expect(sim.apiKey).toBe(apiKey);
    sim.control.clock.advance(1000); // the retry is due at most 1 s after the previous process's failure
    await receiver.waitForMessage(2);
    await sim.control.webhooks.idle();
    sim.control.clock.advance(3_600_000);
    await sim.control.webhooks.idle();

    expect(receiver.received.map((r) => r.answeredWith)).toEqual([502, 200]);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    const retried = receiver.received[1]!;
    expect(isAuthenticWebhook(retried, apiKey, { now: sim.control.clock.now(), toleranceSeconds: 7200 })).toBe(true);
    const delivered = (await deliveriesOf(sim, requestId))[0]!;
    expect(delivered).toMatchObject({ state: 'delivered', nextAttemptAt: null });
    expect(delivered.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 502],
      [2, 200],
    ]);
    expect(delivered.attempts[1]!.at).toBeGreaterThanOrEqual(pending.nextAttemptAt!);
  });
});
