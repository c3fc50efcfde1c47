import { Router } from 'express';
import { z } from 'zod';
import type { VirtualClock } from '../../clock/VirtualClock';
import { WebhookEndpointSettingsSchema } from '../../domain/webhook/webhookEndpoint';
import { ApiKeyNotFoundError, WebhookNotConfiguredError } from '../../errors/webhookErrors';
import type { ApiKeyStore } from '../../store/ApiKeyStore';
import type { WebhookEndpoint, WebhookStore } from '../../store/WebhookStore';
import { parseWithSchema } from '../../errors/parseWithSchema';
import { RequestIdSchema } from '../../domain/request/requestId';

export interface WebhookAdminRouteDeps {
  apiKeys: ApiKeyStore;
  webhooks: WebhookStore;
  clock: VirtualClock;
}

export const DeliveriesQuerySchema = z
  .object({
    requestId: RequestIdSchema.optional(),
    apiKey: z.string().min(1).optional(),
    state: z.enum(['pending', 'delivered', 'failed']).optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
  })
  .strict();

function endpointView(endpoint: WebhookEndpoint) {
  return { apiKey: endpoint.apiKey, enabled: endpoint.enabled, url: endpoint.url, headers: endpoint.headers, updatedAt: endpoint.updatedAt };
}

/**
 * The dashboard's "Configure Webhook" (SPEC §6.1) and a delivery log, on the admin interface:
 * `PUT|GET|DELETE /admin/api-keys/:apiKey/webhook` and `GET /admin/webhook-deliveries`.
 */
export function webhookAdminRoutes(deps: WebhookAdminRouteDeps): Router {
  const router = Router();
  const knownKey = (apiKey: string) => {
    if (!deps.apiKeys.get(apiKey)) throw new ApiKeyNotFoundError(apiKey);
    return apiKey;
  };

  router.put('/admin/api-keys/:apiKey/webhook', (req, res) => {
    const apiKey = knownKey(req.params.apiKey);
    const settings = parseWithSchema(WebhookEndpointSettingsSchema, req.body);
    res.json(endpointView(deps.webhooks.putEndpoint(apiKey, settings, deps.clock.now())));
  });

  router.get('/admin/api-keys/:apiKey/webhook', (req, res) => {
    const apiKey = knownKey(req.params.apiKey);
    const endpoint = deps.webhooks.getEndpoint(apiKey);
    if (!endpoint) throw new WebhookNotConfiguredError(apiKey);
    res.json(endpointView(endpoint));
  });

  router.delete('/admin/api-keys/:apiKey/webhook', (req, res) => {
    const apiKey = knownKey(req.params.apiKey);
    if (!deps.webhooks.deleteEndpoint(apiKey)) throw new WebhookNotConfiguredError(apiKey);
    res.status(204).end();
  });

  router.get('/admin/webhook-deliveries', (req, res) => {
    const query = parseWithSchema(DeliveriesQuerySchema, req.query, 'query');
    const deliveries = deps.webhooks.listDeliveries(query).map((delivery) => ({
      id: delivery.id,
      requestId: delivery.requestId,
      apiKey: delivery.apiKey,
      status: delivery.requestStatus,
      url: delivery.url,
      state: delivery.state,
      createdAt: delivery.createdAt,
      nextAttemptAt: delivery.nextAttemptAt,
      deliveredAt: delivery.deliveredAt,
      payload: JSON.parse(delivery.body) as unknown,
      attempts: deps.webhooks.attemptsFor(delivery.id),
    }));
    res.json({ deliveries });
  });
  return router;
}
