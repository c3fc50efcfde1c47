import { ADMIN_OPERATIONS } from './operations/adminOperations';
import { LOOKUP_OPERATIONS } from './operations/lookupOperations';
import { QUOTE_AND_REQUEST_OPERATIONS } from './operations/quoteAndRequestOperations';
import { buildOpenApiDocument } from './buildOpenApiDocument';
import { WebhookPayloadSchema } from './schemas/statusResponseSchemas';
import { REQUEST_STATUS_UPDATED } from '../../domain/webhook/webhookPayload';
import { SIGNATURE_HEADER, SIGNATURE_TIMESTAMP_HEADER } from '../../events/webhooks/webhookSignature';

const VERSION = '1.0.0';

/** Every route of the service's surface (SPEC §4.1–§4.7, the older versions included). */
export const PUBLIC_OPERATIONS = [...QUOTE_AND_REQUEST_OPERATIONS, ...LOOKUP_OPERATIONS];

/** `GET /openapi.json`: the service's surface, its webhook (SPEC §6) included. */
export function buildPublicOpenApiDocument(): Record<string, unknown> {
  return buildOpenApiDocument(
    {
      title: 'intentsim: cross-chain intent execution service',
      version: VERSION,
      description: 'The service surface intentsim simulates (quotes, status, request listing, signatures, look-ups, gasless execution, app fees). Every error is `{ errorCode, message, statusCode }`. Amounts are decimal strings.',
      webhooks: {
        [REQUEST_STATUS_UPDATED]: {
          summary: 'SPEC §6.1: POSTed to the API key\'s webhook endpoint on every status change',
          payload: WebhookPayloadSchema,
          headers: { [SIGNATURE_TIMESTAMP_HEADER]: 'unix seconds of sending', [SIGNATURE_HEADER]: 'hex HMAC-SHA256, keyed with the API key, of `${timestamp}.${body}` (SPEC §6.3)' },
        },
      },
    },
    PUBLIC_OPERATIONS,
  );
}

/** `GET /admin/openapi.json`: the simulator's control plane, apart from the service's surface. */
export function buildAdminOpenApiDocument(): Record<string, unknown> {
  return buildOpenApiDocument(
    { title: 'intentsim control plane', version: VERSION, description: 'The simulator\'s admin routes (docs/control-plane.md): open on loopback, the default API key beyond.' },
    ADMIN_OPERATIONS,
  );
}
