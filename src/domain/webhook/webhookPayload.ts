import type { StatusEventData } from '../request/statusResponse';

/** SPEC §6.1: the one webhook event type. */
export const REQUEST_STATUS_UPDATED = 'request.status.updated';

/** SPEC §6.1: the body POSTed to a webhook endpoint. */
export interface WebhookPayload {
  event: typeof REQUEST_STATUS_UPDATED;
  /** unix milliseconds of the status change */
  timestamp: number;
  data: StatusEventData;
}

export function buildWebhookPayload(data: StatusEventData, timestamp: number): WebhookPayload {
  return { event: REQUEST_STATUS_UPDATED, timestamp, data };
}
