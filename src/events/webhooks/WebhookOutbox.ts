import { buildWebhookPayload } from '../../domain/webhook/webhookPayload';
import type { StatusEventOutbox, StatusEventOutboxEntry } from '../../lifecycle/transitionRequest';
import type { WebhookStore } from '../../store/WebhookStore';

/**
 * SPEC §6.1: every status change of a request made with an API key whose webhook is enabled
 * becomes one delivery row, written in the status change's own SQLite transaction. The body is
 * fixed here, so every attempt sends the same bytes; the endpoint's URL and headers are those
 * configured when the status changed.
 */
export class WebhookOutbox implements StatusEventOutbox {
  constructor(private readonly store: WebhookStore) {}

  enqueue(entry: StatusEventOutboxEntry): void {
    const apiKey = entry.record.apiKey;
    if (apiKey === null) return;
    const endpoint = this.store.getEndpoint(apiKey);
    if (!endpoint?.enabled) return;
    this.store.enqueue({
      eventSeq: entry.seq,
      requestId: entry.record.id.toLowerCase(),
      apiKey,
      requestStatus: entry.record.status,
      url: endpoint.url,
      headers: endpoint.headers,
      body: JSON.stringify(buildWebhookPayload(entry.data, entry.at)),
      createdAt: entry.at,
    });
  }
}
