import { Router, type Response } from 'express';
import { z } from 'zod';
import type { ChainAdapter } from '../../chains/ChainAdapter';
import { RequestIdSchema } from '../../domain/request/requestId';
import { RequestNotFoundError } from '../../errors/requestErrors';
import { parseWithSchema } from '../../errors/parseWithSchema';
import { knownContractAbis } from '../../lookups/knownContractAbis';
import type { ApiKeyStore } from '../../store/ApiKeyStore';
import type { RequestStore } from '../../store/RequestStore';
import type { WebhookStore } from '../../store/WebhookStore';
import { explorerAssets } from '../explorer/explorerBundle';
import { explorerPage } from '../explorer/explorerPage';
import { explorerTimelineOrder, reportedHashesOf } from '../explorer/explorerTimelineOrder';

export interface ExplorerRouteDeps {
  chains: ReadonlyMap<number, ChainAdapter>;
  requests: RequestStore;
  webhooks: WebhookStore;
  apiKeys: ApiKeyStore;
}

/** JSON with bigints as decimal strings (the JSON edge's rule for amounts). */
function sendJson(res: Response, body: unknown): void {
  res.type('application/json').send(JSON.stringify(body, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)));
}

/** The path parameters of `/admin/explorer/requests/:requestId`. */
const RequestPathSchema = z.object({ requestId: RequestIdSchema });

/**
 * The local explorer (docs/explorer.md ("Explorer")): its page at `/` and `/explorer/…` (the browser routes
 * inside it), its script and styles, and the read-only JSON it needs beyond the public API, under
 * `/admin/explorer/` (guarded like every admin route: open on loopback, the default key beyond).
 */
export function explorerRoutes(deps: ExplorerRouteDeps): Router {
  const router = Router();

  router.get('/explorer/assets/explorer.js', async (_req, res) => {
    const assets = await explorerAssets();
    res.type('text/javascript').set('cache-control', 'no-cache').send(assets.script);
  });
  router.get('/explorer/assets/explorer.css', async (_req, res) => {
    const assets = await explorerAssets();
    res.type('text/css').set('cache-control', 'no-cache').send(assets.styles);
  });
  router.get(['/', '/explorer', '/explorer/*path'], (req, res, next) => {
    if (req.path.startsWith('/explorer/assets/')) return next();
    res.type('text/html').set('cache-control', 'no-cache').send(explorerPage());
  });

  /** The default API key, for the page's `/requests/v3` and websocket calls (loopback only, as every admin route). */
  router.get('/admin/explorer/session', (_req, res) => {
    const defaultKey = deps.apiKeys.list().find((key) => key.isDefault);
    res.json({ apiKey: defaultKey?.key ?? null });
  });

  /** What the public API does not show of a request: its status changes with times, the quote it came from, webhook deliveries and their attempts, and the order of its timeline. */
  router.get('/admin/explorer/requests/:requestId', (req, res) => {
    const { requestId } = parseWithSchema(RequestPathSchema, req.params, 'path');
    const record = deps.requests.get(requestId);
    if (!record) throw new RequestNotFoundError(requestId);
    const events = deps.requests.eventsFor(record.id);
    const deliveries = deps.webhooks.listDeliveries({ requestId: record.id }).map((delivery) => ({ delivery, attempts: deps.webhooks.attemptsFor(delivery.id) }));
    sendJson(res, {
      requestId: record.id,
      statusChanges: events.map((event) => ({ seq: event.seq, from: event.fromStatus, to: event.toStatus, at: event.at, ...reportedHashesOf(event) })),
      quote: record.quote,
      webhookDeliveries: deliveries.map(({ delivery, attempts }) => ({
        id: delivery.id,
        status: delivery.requestStatus,
        url: delivery.url,
        state: delivery.state,
        createdAt: delivery.createdAt,
        nextAttemptAt: delivery.nextAttemptAt,
        deliveredAt: delivery.deliveredAt,
        attempts,
      })),
      // the page's items in the order things happened, whichever clock their times come from
      timeline: explorerTimelineOrder(record, events, deliveries),
    });
  });

  /** ABIs of the known contracts and the simulator's labels for addresses on each chain: what the explorer decodes with. */
  router.get('/admin/explorer/contracts', (_req, res) => {
    const labels = Object.fromEntries(
      [...deps.chains.values()].map((chain) => {
        const described = chain.describe();
        const named = [...described.summaryContracts.map((contract) => [contract.address, contract.label] as const), [described.solverAddress, 'solver wallet'] as const];
        return [chain.chainId, Object.fromEntries(named.map(([address, label]) => [address.toLowerCase(), label]))];
      }),
    );
    sendJson(res, { contracts: knownContractAbis(), labels });
  });
  return router;
}
