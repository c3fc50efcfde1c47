import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator';
import { startTestSimulator } from '../../support/startTestSimulator';
import { isAuthenticWebhook, startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver';
import { quoteWithApiKey } from '../../support/webhookFlows';

/** The `webhook` config setting (the default key's endpoint) and §6.1 `data.depositAddress`. */
describe('webhook from the config file, for a deposit-address request', () => {
  let sim: RunningSimulator;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    sim = await startTestSimulator({ webhook: { url: receiver.url, headers: { 'X-Team': 'payments' } } });
  });
  afterAll(async () => {
    await sim?.stop();
    await receiver?.close();
  });

  it('delivers to the configured endpoint, with the deposit address in §6.1 form', async () => {
    expect((await fetch(`${sim.baseUrl}/admin/api-keys/${sim.apiKey}/webhook`).then((r) => r.json())) as unknown).toMatchObject({
      url: receiver.url,
      enabled: true,
      headers: { 'X-Team': 'payments' },
    });
    const quote = await quoteWithApiKey(sim, sim.apiKey, { useDepositAddress: true });
    const depositAddress = quote.steps[0]!.depositAddress as string;
    expect(depositAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);

    const delivery = await receiver.waitForMessage(1);
    expect(delivery.headers['x-team']).toBe('payments');
    expect(isAuthenticWebhook(delivery, sim.apiKey)).toBe(true);
    const body = JSON.parse(delivery.body);
    expect(body.data).toMatchObject({
      status: 'waiting',
      requestId: quote.steps[0]!.requestId,
      depositAddress: { address: depositAddress, depositAddressType: 'open', depositor: null, depositTxHash: null },
    });
    expect(Object.keys(body.data.depositAddress).sort()).toEqual(['address', 'depositAddressType', 'depositTxHash', 'depositor']);
  });
});
