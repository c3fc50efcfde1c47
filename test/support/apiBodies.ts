import type { QuoteResponse } from '../../src/domain/quote/quoteResponse';
import type { StatusResponse } from '../../src/domain/request/statusResponse';

/** A value as it arrives over JSON: bigints became strings. */
export type Jsonified<T> = T extends bigint
  ? string
  : T extends readonly (infer U)[]
    ? Jsonified<U>[]
    : T extends object
      ? { [K in keyof T]: Jsonified<T[K]> }
      : T;

/** Every 4xx/5xx body (DESIGN: `{ errorCode, message }`; `statusCode` because the SDK reads it there). */
export interface ApiErrorBody {
  errorCode: string;
  message: string;
  statusCode: number;
  [extra: string]: unknown;
}

/** SPEC §2.4 `GET /intents/status/v3`. */
export type StatusBody = Jsonified<StatusResponse>;

/** A transaction step item as a wallet sends it (SPEC §2.2). */
export interface StepItemBody {
  status: 'incomplete';
  data: { from: string; to: string; data: string; value: string; chainId: number; gas: string; maxFeePerGas: string; maxPriorityFeePerGas: string };
  check?: { endpoint: string; method: string };
}

export interface StepBody {
  id: 'approve' | 'deposit';
  action: string;
  description: string;
  kind: 'transaction' | 'signature';
  requestId: string;
  depositAddress?: string;
  items: StepItemBody[];
}

/** SPEC §2.2 `POST /quote/v2`, with the step items typed as a wallet reads them. */
export type QuoteResponseBody = Omit<Jsonified<QuoteResponse>, 'steps'> & { steps: StepBody[] };

/** One webhook delivery of `GET /admin/webhook-deliveries` (docs/webhooks.md ("Webhooks")). */
export interface WebhookDeliveryBody {
  id: number;
  requestId: string;
  apiKey: string;
  status: string;
  url: string;
  state: 'pending' | 'delivered' | 'failed';
  createdAt: number;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
  payload: { type: string; data: StatusBody & Record<string, unknown>; [key: string]: unknown };
  attempts: Array<{ attempt: number; at: number; signatureTimestamp: number; statusCode: number | null; error: string | null }>;
}

/** The webhook endpoint of an API key (`PUT/GET /admin/api-keys/:apiKey/webhook`). */
export interface WebhookEndpointBody {
  apiKey: string;
  url: string;
  enabled: boolean;
  headers: Record<string, string>;
  [key: string]: unknown;
}
