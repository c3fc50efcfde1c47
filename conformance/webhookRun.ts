import { skipCheck, type CheckContext } from './check';
import { bridgeRouteOf } from './bridgeRoute';
import { advanceClock, registerWebhook, removeWebhook, webhookEndpointOf } from './controlPlane';
import { driveBridge, type BridgeRun } from './driveBridge';
import type { Exchange } from './http';
import { sharedRun } from './sharedRuns';
import { startWebhookReceiver, type ReceivedWebhook } from './webhookReceiver';

/** The referrer the webhook run quotes with; §4.1 says the payload echoes it. */
export const WEBHOOK_RUN_REFERRER = 'intentsim-conformance';
/** How long after the request settles the deliveries (and the retry) may take to arrive. */
const DELIVERY_WAIT_MS = 3_000;
/** How often the target's clock is moved on while a retry is awaited (docs/webhooks.md: retries wait on the simulator's clock, 1 s before the first). */
const CLOCK_NUDGE_EVERY_MS = 400;

export interface WebhookRun {
  bridge: BridgeRun;
  apiKey: string;
  receiverUrl: string;
  /** Every POST that arrived for the run's request, in arrival order (retries included). */
  deliveries: ReceivedWebhook[];
  /** The first attempt for the request, which the receiver answered 500 to provoke a retry. */
  refused: ReceivedWebhook | undefined;
  /** A later attempt of the same status change as `refused`. */
  retry: ReceivedWebhook | undefined;
}

function requestIdOf(delivery: Pick<ReceivedWebhook, 'json'>): unknown {
  return (delivery.json as { data?: { requestId?: unknown } } | undefined)?.data?.requestId;
}

/** The status change a delivery reports: `status@updatedAt` (retries of one change carry the same). */
export function changeOf(delivery: Pick<ReceivedWebhook, 'json'>): string {
  const data = (delivery.json as { data?: { status?: unknown; updatedAt?: unknown } } | undefined)?.data;
  return `${String(data?.status)}@${String(data?.updatedAt)}`;
}

/** A delivery as an exchange, so a failure report shows the webhook request the target sent. */
export function exchangeOfDelivery(run: Pick<WebhookRun, 'receiverUrl'>, delivery: ReceivedWebhook): Exchange {
  return {
    method: 'POST',
    url: `${run.receiverUrl} (webhook from the target)`,
    requestHeaders: delivery.headers,
    requestBody: delivery.rawBody.toString('utf8'),
    status: delivery.answeredStatus,
    responseHeaders: {},
    responseText: '',
    json: undefined,
  };
}

/**
 * SPEC §6: a local receiver registered as the API key's webhook endpoint (control plane:
 * `PUT /admin/api-keys/:apiKey/webhook`), a bridge quoted with that key and paid, and every
 * delivery for it until the final status has been delivered and the first attempt, refused with
 * a 500, has been retried. The key's earlier endpoint, if any, is put back afterwards. Skips
 * without a control plane, an API key or a funded account.
 */
export function webhookRun({ http, target }: CheckContext): Promise<WebhookRun> {
  return sharedRun(target, 'webhooks.session', async () => {
    if (!(await target.hasControlPlane())) skipCheck('registering a webhook endpoint needs the simulator control plane (PUT /admin/api-keys/:apiKey/webhook); the SPEC sets it in a dashboard');
    const apiKey = target.apiKey;
    if (!apiKey) skipCheck('webhooks belong to an API key (§6.1) and are signed with it (§6.3); none was given');
    const route = await bridgeRouteOf(target);
    const ours = (received: readonly ReceivedWebhook[], requestId: string) => received.filter((delivery) => requestIdOf(delivery) === requestId);
    const receiver = await startWebhookReceiver((delivery, received) => {
      const requestId = requestIdOf(delivery);
      const firstForRequest = typeof requestId === 'string' && !received.some((earlier) => requestIdOf(earlier) === requestId);
      return firstForRequest ? 500 : 200;
    });
    try {
      const earlierEndpoint = await webhookEndpointOf(http, apiKey);
      await registerWebhook(http, apiKey, { url: receiver.url });
      try {
        const bridge = await driveBridge(http, route, { withApiKey: true, referrer: WEBHOOK_RUN_REFERRER, settlesAt: ['success', 'failure', 'refund'] });
        const settled = bridge.final.body.status;
        const refusedOf = (received: readonly ReceivedWebhook[]) => ours(received, bridge.requestId).find((delivery) => delivery.answeredStatus >= 300);
        const retryOf = (received: readonly ReceivedWebhook[], refused: ReceivedWebhook | undefined) =>
          refused && ours(received, bridge.requestId).find((delivery) => delivery.index > refused.index && changeOf(delivery) === changeOf(refused));
        const done = (received: readonly ReceivedWebhook[]) => {
          const finalDelivered = ours(received, bridge.requestId).some((delivery) => delivery.answeredStatus < 300 && changeOf(delivery).startsWith(`${settled}@`));
          const refused = refusedOf(received);
          return finalDelivered && refused !== undefined && retryOf(received, refused) !== undefined;
        };
        const deadline = performance.now() + DELIVERY_WAIT_MS;
        let lastNudge = -Infinity;
        while (!done(receiver.received) && performance.now() < deadline) {
          if (refusedOf(receiver.received) && performance.now() - lastNudge > CLOCK_NUDGE_EVERY_MS) {
            lastNudge = performance.now();
            await advanceClock(http, 1);
          }
          await receiver.waitUntil(done, 50);
        }
        const refused = refusedOf(receiver.received);
        return { bridge, apiKey, receiverUrl: receiver.url, deliveries: ours(receiver.received, bridge.requestId), refused, retry: retryOf(receiver.received, refused) };
      } finally {
        if (earlierEndpoint) await registerWebhook(http, apiKey, earlierEndpoint);
        else await removeWebhook(http, apiKey);
      }
    } finally {
      await receiver.close();
    }
  });
}
