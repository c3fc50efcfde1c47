import type { RequestStatus } from './requestStatus';

/**
 * The v1 enum (`GET /intents/status`, `GET /requests`): failure|fallback|pending|received|success.
 * See docs/divergences.md for the mapping.
 */
export const V1_STATUS: Record<RequestStatus, string> = {
  waiting: 'pending',
  depositing: 'received',
  pending: 'received',
  submitted: 'received',
  success: 'success',
  failure: 'failure',
  refund: 'fallback',
};

/** The v2 enum (`GET /intents/status/v2`, `GET /requests/v2`) has no `submitted`: a submitted fill is still `pending` there. */
export const V2_STATUS: Record<RequestStatus, string> = {
  waiting: 'waiting',
  depositing: 'depositing',
  pending: 'pending',
  submitted: 'pending',
  success: 'success',
  failure: 'failure',
  refund: 'refund',
};
