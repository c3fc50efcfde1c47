import { zeroAddress } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import type { ApiErrorBody, QuoteResponseBody, WebhookDeliveryBody, WebhookEndpointBody } from './apiBodies';

/** Sets the webhook endpoint of an API key through the admin interface. */
export async function putWebhook(sim: RunningSimulator, apiKey: string, settings: unknown): Promise<{ status: number; body: WebhookEndpointBody | ApiErrorBody | null }> {
  const response = await fetch(`${sim.baseUrl}/admin/api-keys/${apiKey}/webhook`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(settings),
  });
  return { status: response.status, body: response.status === 204 ? null : ((await response.json()) as WebhookEndpointBody | ApiErrorBody) };
}

/** A native bridge quote between the simulator's first two chains, made with an `x-api-key`. */
export async function quoteWithApiKey(sim: RunningSimulator, apiKey: string | undefined, overrides: Record<string, unknown> = {}): Promise<QuoteResponseBody> {
  const response = await fetch(`${sim.baseUrl}/quote/v2`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) },
    body: JSON.stringify({
      user: sim.accounts[0]!.address,
      originChainId: sim.chains[0]!.id,
      destinationChainId: sim.chains[1]!.id,
      originCurrency: zeroAddress,
      destinationCurrency: zeroAddress,
      amount: '20000000000000000',
      tradeType: 'EXACT_INPUT',
      ...overrides,
    }),
  });
  if (response.status !== 200) throw new Error(`quote failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as QuoteResponseBody;
}

/** The admin delivery log of one request. */
export async function deliveriesOf(sim: RunningSimulator, requestId: string): Promise<WebhookDeliveryBody[]> {
  const response = await fetch(`${sim.baseUrl}/admin/webhook-deliveries?requestId=${requestId}`);
  return ((await response.json()) as { deliveries: WebhookDeliveryBody[] }).deliveries;
}
