import type { ConformanceHttp } from './http';

/**
 * The simulator's control plane (`/admin/…`, docs/control-plane.md ("Control plane")), not part of the SPEC: full
 * mode uses it only when `target.hasControlPlane()`. Each call throws when the target refuses it,
 * so a check reports that it could not complete rather than judging a rule it could not set up.
 */

/** `POST /admin/solver/rules`: what the solver does with the requests `match` selects; answers the rule's id. */
export async function addSolverRule(http: ConformanceHttp, rule: { match: Record<string, unknown>; action: Record<string, unknown>; times?: number }): Promise<string> {
  const exchange = await http.post('/admin/solver/rules', rule, { withApiKey: true });
  const id = (exchange.json as { rule?: { id?: unknown } } | undefined)?.rule?.id;
  if (exchange.status >= 300 || typeof id !== 'string') throw new Error(`the control plane refused a solver rule: HTTP ${exchange.status} ${exchange.responseText.slice(0, 200)}`);
  return id;
}

export async function removeSolverRule(http: ConformanceHttp, id: string): Promise<void> {
  await http.request('DELETE', `/admin/solver/rules/${encodeURIComponent(id)}`, { withApiKey: true });
}

/** The settings of a key's webhook endpoint, as `GET /admin/api-keys/:apiKey/webhook` answers them. */
export interface WebhookEndpointSettings {
  url: string;
  enabled?: boolean;
  headers?: Record<string, string>;
}

const webhookPathOf = (apiKey: string) => `/admin/api-keys/${encodeURIComponent(apiKey)}/webhook`;

/** The key's webhook endpoint, or undefined when it has none. */
export async function webhookEndpointOf(http: ConformanceHttp, apiKey: string): Promise<WebhookEndpointSettings | undefined> {
  const exchange = await http.get(webhookPathOf(apiKey), { withApiKey: true });
  const endpoint = exchange.json as Partial<WebhookEndpointSettings> | undefined;
  if (exchange.status !== 200 || typeof endpoint?.url !== 'string') return undefined;
  return { url: endpoint.url, ...(endpoint.enabled !== undefined ? { enabled: endpoint.enabled } : {}), ...(endpoint.headers ? { headers: endpoint.headers } : {}) };
}

/** `PUT /admin/api-keys/:apiKey/webhook`: the key's one webhook endpoint (SPEC §6.1 "Configure Webhook"), replacing any earlier one. */
export async function registerWebhook(http: ConformanceHttp, apiKey: string, settings: WebhookEndpointSettings): Promise<void> {
  const exchange = await http.request('PUT', webhookPathOf(apiKey), { body: { enabled: true, ...settings }, withApiKey: true });
  if (exchange.status >= 300) throw new Error(`the control plane refused the webhook endpoint: HTTP ${exchange.status} ${exchange.responseText.slice(0, 200)}`);
}

export async function removeWebhook(http: ConformanceHttp, apiKey: string): Promise<void> {
  await http.request('DELETE', webhookPathOf(apiKey), { withApiKey: true });
}

/** `POST /admin/clock/advance`: moves the target's clock, so timers due by then (webhook retries) fire. */
export async function advanceClock(http: ConformanceHttp, seconds: number): Promise<void> {
  const exchange = await http.post('/admin/clock/advance', { seconds }, { withApiKey: true });
  if (exchange.status >= 300) throw new Error(`the control plane refused to advance the clock: HTTP ${exchange.status} ${exchange.responseText.slice(0, 200)}`);
}
