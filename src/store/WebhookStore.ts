import type Database from 'better-sqlite3';
import type { WebhookEndpointSettings } from '../domain/webhook/webhookEndpoint';

export interface WebhookEndpoint extends WebhookEndpointSettings {
  apiKey: string;
  updatedAt: number;
}

export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed';

/** One row of the webhook outbox: a status event to POST to one endpoint. */
export interface WebhookDelivery {
  id: number;
  eventSeq: number;
  requestId: string;
  apiKey: string;
  /** The request status the event reports. */
  requestStatus: string;
  url: string;
  headers: Record<string, string>;
  /** The exact JSON body (the same bytes on every attempt). */
  body: string;
  state: WebhookDeliveryState;
  attempts: number;
  nextAttemptAt: number | null;
  createdAt: number;
  deliveredAt: number | null;
}

/** One POST of a delivery: what the receiver answered, or why no answer came. */
export interface WebhookAttempt {
  attempt: number;
  /** virtual unix milliseconds when the POST was sent */
  at: number;
  /** the X-Signature-Timestamp header sent (unix seconds) */
  signatureTimestamp: number;
  statusCode: number | null;
  error: string | null;
}

export type NewWebhookDelivery = Pick<WebhookDelivery, 'eventSeq' | 'requestId' | 'apiKey' | 'requestStatus' | 'url' | 'headers' | 'body' | 'createdAt'>;

interface EndpointRow {
  api_key: string;
  enabled: number;
  url: string;
  headers_json: string;
  updated_at: number;
}

interface DeliveryRow {
  id: number;
  event_seq: number;
  request_id: string;
  api_key: string;
  request_status: string;
  url: string;
  headers_json: string;
  body: string;
  state: string;
  attempts: number;
  next_attempt_at: number | null;
  created_at: number;
  delivered_at: number | null;
}

interface AttemptRow {
  attempt: number;
  at: number;
  signature_timestamp: number;
  status_code: number | null;
  error: string | null;
}

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return { apiKey: row.api_key, enabled: row.enabled === 1, url: row.url, headers: JSON.parse(row.headers_json) as Record<string, string>, updatedAt: row.updated_at };
}

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    eventSeq: row.event_seq,
    requestId: row.request_id,
    apiKey: row.api_key,
    requestStatus: row.request_status,
    url: row.url,
    headers: JSON.parse(row.headers_json) as Record<string, string>,
    body: row.body,
    state: row.state as WebhookDeliveryState,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
  };
}

/**
 * Webhook endpoints (one per API key, SPEC §6.1 / §8), the delivery outbox and the log of every
 * attempt. Deliveries are inserted inside the status change's transaction (`WebhookOutbox`).
 */
export class WebhookStore {
  private readonly getEndpointStatement: Database.Statement<[string], EndpointRow>;
  private readonly putEndpointStatement: Database.Statement;
  private readonly deleteEndpointStatement: Database.Statement<[string]>;
  private readonly insertDeliveryStatement: Database.Statement;
  private readonly getDeliveryStatement: Database.Statement<[number], DeliveryRow>;
  private readonly pendingStatement: Database.Statement<[], DeliveryRow>;
  private readonly pendingForEventStatement: Database.Statement<[number], DeliveryRow>;
  private readonly insertAttemptStatement: Database.Statement;
  private readonly updateDeliveryStatement: Database.Statement;
  private readonly attemptsStatement: Database.Statement<[number], AttemptRow>;

  constructor(readonly db: Database.Database) {
    this.getEndpointStatement = db.prepare('SELECT * FROM webhook_endpoints WHERE api_key = ?');
    this.putEndpointStatement = db.prepare(
      `INSERT INTO webhook_endpoints (api_key, enabled, url, headers_json, updated_at) VALUES (@apiKey, @enabled, @url, @headersJson, @updatedAt)
       ON CONFLICT (api_key) DO UPDATE SET enabled = excluded.enabled, url = excluded.url, headers_json = excluded.headers_json, updated_at = excluded.updated_at`,
    );
    this.deleteEndpointStatement = db.prepare('DELETE FROM webhook_endpoints WHERE api_key = ?');
    this.insertDeliveryStatement = db.prepare(
      `INSERT INTO webhook_deliveries (event_seq, request_id, api_key, request_status, url, headers_json, body, state, attempts, next_attempt_at, created_at)
       VALUES (@eventSeq, @requestId, @apiKey, @requestStatus, @url, @headersJson, @body, 'pending', 0, @createdAt, @createdAt)`,
    );
    this.getDeliveryStatement = db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?');
    this.pendingStatement = db.prepare(`SELECT * FROM webhook_deliveries WHERE state = 'pending' ORDER BY next_attempt_at, id`);
    this.pendingForEventStatement = db.prepare(`SELECT * FROM webhook_deliveries WHERE state = 'pending' AND event_seq = ? ORDER BY id`);
    this.insertAttemptStatement = db.prepare(
      'INSERT INTO webhook_attempts (delivery_id, attempt, at, signature_timestamp, status_code, error) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.updateDeliveryStatement = db.prepare(
      'UPDATE webhook_deliveries SET state = @state, attempts = @attempts, next_attempt_at = @nextAttemptAt, delivered_at = @deliveredAt WHERE id = @id',
    );
    this.attemptsStatement = db.prepare('SELECT * FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempt');
  }

  getEndpoint(apiKey: string): WebhookEndpoint | undefined {
    const row = this.getEndpointStatement.get(apiKey);
    return row ? toEndpoint(row) : undefined;
  }

  putEndpoint(apiKey: string, settings: WebhookEndpointSettings, now: number): WebhookEndpoint {
    this.putEndpointStatement.run({ apiKey, enabled: settings.enabled ? 1 : 0, url: settings.url, headersJson: JSON.stringify(settings.headers), updatedAt: now });
    return { apiKey, ...settings, updatedAt: now };
  }

  deleteEndpoint(apiKey: string): boolean {
    return this.deleteEndpointStatement.run(apiKey).changes > 0;
  }

  /** Adds a delivery to the outbox, due at once. Called inside the status change's transaction. */
  enqueue(delivery: NewWebhookDelivery): number {
    const result = this.insertDeliveryStatement.run({ ...delivery, headersJson: JSON.stringify(delivery.headers) });
    return Number(result.lastInsertRowid);
  }

  getDelivery(id: number): WebhookDelivery | undefined {
    const row = this.getDeliveryStatement.get(id);
    return row ? toDelivery(row) : undefined;
  }

  /** Every delivery still to be attempted, soonest first. */
  pending(): WebhookDelivery[] {
    return this.pendingStatement.all().map(toDelivery);
  }

  pendingForEvent(eventSeq: number): WebhookDelivery[] {
    return this.pendingForEventStatement.all(eventSeq).map(toDelivery);
  }

  /** Logs one attempt and moves the delivery to its new state, in one transaction. */
  recordAttempt(
    deliveryId: number,
    attempt: WebhookAttempt,
    outcome: { state: WebhookDeliveryState; nextAttemptAt: number | null; deliveredAt: number | null },
  ): void {
    this.db.transaction(() => {
      this.insertAttemptStatement.run(deliveryId, attempt.attempt, attempt.at, attempt.signatureTimestamp, attempt.statusCode, attempt.error);
      this.updateDeliveryStatement.run({ id: deliveryId, attempts: attempt.attempt, ...outcome });
    })();
  }

  attemptsFor(deliveryId: number): WebhookAttempt[] {
    return this.attemptsStatement.all(deliveryId).map((row) => ({
      attempt: row.attempt,
      at: row.at,
      signatureTimestamp: row.signature_timestamp,
      statusCode: row.status_code,
      error: row.error,
    }));
  }

  /** Deliveries, oldest first, optionally of one request and/or one API key. */
  listDeliveries(filter: { requestId?: string; apiKey?: string; state?: WebhookDeliveryState; limit?: number }): WebhookDelivery[] {
    const clauses: string[] = [];
    const params: Record<string, unknown> = { limit: filter.limit ?? 1000 };
    if (filter.requestId !== undefined) {
      clauses.push('request_id = @requestId');
      params.requestId = filter.requestId.toLowerCase();
    }
    if (filter.apiKey !== undefined) {
      clauses.push('api_key = @apiKey');
      params.apiKey = filter.apiKey;
    }
    if (filter.state !== undefined) {
      clauses.push('state = @state');
      params.state = filter.state;
    }
    const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
    return this.db
      .prepare<Record<string, unknown>, DeliveryRow>(`SELECT * FROM webhook_deliveries ${where} ORDER BY id LIMIT @limit`)
      .all(params)
      .map(toDelivery);
  }

  reset(): void {
    this.db.exec('DELETE FROM webhook_attempts; DELETE FROM webhook_deliveries; DELETE FROM webhook_endpoints;');
  }
}
