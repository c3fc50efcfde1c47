import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import type { z } from 'zod';
import type { buildChainView } from '../../src/domain/chain/chainView';
import type { QuoteResponse } from '../../src/domain/quote/quoteResponse';
import type { RequestRecordView } from '../../src/domain/request/requestRecordView';
import type { StatusResponse } from '../../src/domain/request/statusResponse';
import type { WebhookPayload } from '../../src/domain/webhook/webhookPayload';
import type { ChainSchema } from '../../src/api/openapi/schemas/chainResponseSchema';
import type { QuoteResponseSchema } from '../../src/api/openapi/schemas/quoteResponseSchema';
import type { RequestRecordSchema } from '../../src/api/openapi/schemas/requestRecordResponseSchema';
import type { SignatureResponseSchema } from '../../src/api/openapi/schemas/signatureResponseSchema';
import type { StatusResponseSchema, WebhookPayloadSchema } from '../../src/api/openapi/schemas/statusResponseSchemas';
import type { requestSignatureDataOf } from '../../src/domain/request/requestSignature';
import { buildAdminOpenApiDocument, buildPublicOpenApiDocument } from '../../src/api/openapi/serviceOpenApiDocuments';
import { OpenApiAnswerValidator, type OpenApiDocument } from '../support/openapiAnswerValidator';

/** Compiles only if what the routes build (the §2 views) is a value of the schema the document publishes. */
export function builtAnswersMatchTheirSchemas(built: {
  chain: ReturnType<typeof buildChainView>;
  quote: QuoteResponse;
  record: RequestRecordView;
  status: StatusResponse;
  signature: { requestData: ReturnType<typeof requestSignatureDataOf>; signature: Hex };
  webhook: WebhookPayload;
}) {
  const published: {
    chain: z.infer<typeof ChainSchema>;
    quote: z.infer<typeof QuoteResponseSchema>;
    record: z.infer<typeof RequestRecordSchema>;
    status: z.infer<typeof StatusResponseSchema>;
    signature: z.infer<typeof SignatureResponseSchema>;
    webhook: z.infer<typeof WebhookPayloadSchema>;
  } = built;
  return published;
}

/** Every route SPEC §4.1–§4.7 and §9 name (the older versions included), at the official SDK's paths. */
const SPEC_ROUTES = [
  'POST /quote/v2', 'POST /quote', 'POST /price', 'GET /intents/status/v3', 'GET /intents/status/v2', 'GET /intents/status',
  'GET /requests/v3', 'GET /requests/v2', 'GET /requests', 'GET /chains', 'GET /requests/{requestId}/signature', 'GET /requests/{requestId}/signature/v2',
  'POST /execute', 'POST /execute/permits', 'POST /authorize', 'POST /fast-fill',
  'POST /app-fees/{wallet}/claim', 'GET /app-fees/{wallet}/balances', 'GET /chains/liquidity', 'GET /config', 'GET /config/v2',
  'POST /currencies/v1', 'POST /currencies/v2', 'GET /swap-sources', 'GET /currencies/token/price', 'GET /currencies/token/price/v2',
  'POST /transactions/deposit-address/reindex', 'POST /transactions/index', 'POST /transactions/single',
];

/** Routes that serve pages, scripts or the documents themselves: not JSON operations. */
const NOT_OPERATIONS = new Set(['GET /', 'GET /explorer', 'GET /explorer/*path', 'GET /explorer/assets/explorer.js', 'GET /explorer/assets/explorer.css', 'GET /openapi.json', 'GET /admin/openapi.json', 'GET /explorer/api-reference', 'GET /explorer/admin-api-reference', 'GET API_REFERENCE_SCRIPT_PATH']);

/** Every `router.<method>(path | [paths], …)` of src/api/routes, as `METHOD /path/{param}`. */
function registeredRoutes(): string[] {
  const folder = join(import.meta.dirname, '../../src/api/routes');
  return readdirSync(folder).flatMap((file) => {
    const source = readFileSync(join(folder, file), 'utf8');
    return [...source.matchAll(/router\.(get|post|put|delete|patch)\((\[[^\]]*\]|'[^']*'|[A-Z_]+)/g)].flatMap(([, method, target]) => {
      const paths = target!.startsWith('[') ? [...target!.matchAll(/'([^']*)'/g)].map((match) => match[1]!) : target!.startsWith("'") ? [target!.slice(1, -1)] : [target!];
      return paths.map((path) => `${method!.toUpperCase()} ${path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
    });
  });
}

const operationsOf = (document: OpenApiDocument) => Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));

describe('GET /openapi.json', () => {
  // read field by field below, as the JSON it is
  const publicDocument: any = buildPublicOpenApiDocument();
  const adminDocument: any = buildAdminOpenApiDocument();

  it('passes an OpenAPI 3.1 validator (@seriousme/openapi-schema-validator), and so does /admin/openapi.json', async () => {
    for (const document of [publicDocument, adminDocument]) {
      const result = await new Validator().validate(structuredClone(document));
      expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
      expect(result.valid).toBe(true);
      expect(document.openapi).toBe('3.1.0');
    }
  });

  it('lists every SPEC route, and nothing of the control plane; the admin document only /admin routes', () => {
    const listed = operationsOf(publicDocument);
    expect(SPEC_ROUTES.filter((route) => !listed.includes(route))).toEqual([]);
    expect(listed.filter((route) => route.includes('/admin/'))).toEqual([]);
    expect(operationsOf(adminDocument).filter((route) => !route.includes(' /admin/'))).toEqual([]);
  });

  it('documents every route src/api/routes registers, in one of the two documents', () => {
    const documented = new Set([...operationsOf(publicDocument), ...operationsOf(adminDocument)]);
    const routes = registeredRoutes();
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.filter((route) => !documented.has(route) && !NOT_OPERATIONS.has(route))).toEqual([]);
  });

  it('names the x-api-key scheme where SPEC §5 requires it, the error envelope, and the §6 webhook', () => {
    expect(publicDocument.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    expect(publicDocument.paths['/requests/v3'].get.security).toEqual([{ apiKey: [] }]);
    expect(publicDocument.paths['/chains'].get.security).toEqual([]);
    const listingErrors = publicDocument.paths['/requests/v3'].get.responses;
    expect(listingErrors['401'].content['application/json'].schema.properties.errorCode.enum).toEqual(['MISSING_API_KEY', 'INVALID_API_KEY']);
    expect(listingErrors['429'].content['application/json'].schema.required).toEqual(['errorCode', 'message', 'statusCode']);
    const quoteErrors = publicDocument.paths['/quote/v2'].post.responses['400'].content['application/json'].schema.properties.errorCode.enum;
    expect(quoteErrors).toEqual(expect.arrayContaining(['INVALID_ADDRESS', 'INVALID_RECIPIENT', 'INVALID_SLIPPAGE_TOLERANCE', 'AMOUNT_TOO_LOW', 'DESTINATION_TX_FAILED', 'REQUEST_TIMED_OUT', 'RPC_HTTP_ERROR']));
    const webhook = publicDocument.webhooks['request.status.updated'].post;
    expect(webhook.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WebhookPayload' });
    expect(webhook.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(['X-Signature-Timestamp', 'X-Signature-SHA256']);
  });

  it('request parts come from the route schemas: the quote body requires what QuoteRequestSchema requires', () => {
    const body = publicDocument.paths['/quote/v2'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['user', 'originChainId', 'destinationChainId', 'originCurrency', 'destinationCurrency', 'amount', 'tradeType']);
    expect(body.properties.tradeType.enum).toEqual(['EXACT_INPUT', 'EXPECTED_OUTPUT', 'EXACT_OUTPUT']);
    const statusQuery = publicDocument.paths['/intents/status/v3'].get.parameters;
    expect(statusQuery).toEqual([{ name: 'requestId', in: 'query', required: true, schema: { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' } }]);
  });

  it('the answer validator refuses a drifted answer and an undocumented status', () => {
    const validator = new OpenApiAnswerValidator(publicDocument, 'openapi.json');
    const url = 'http://127.0.0.1:1/intents/status/v3?requestId=0x';
    const good = { status: 'waiting', inTxHashes: [], txHashes: [], updatedAt: 1, originChainId: 1, destinationChainId: 8453, details: null, failReason: 'N/A', refundFailReason: 'N/A' };
    expect(validator.verdict({ method: 'GET', url, status: 200, json: good }).problems).toEqual([]);
    expect(validator.verdict({ method: 'GET', url, status: 200, json: { ...good, status: 'done' } }).problems.join()).toMatch(/status must be equal to one of the allowed values/);
    expect(validator.verdict({ method: 'GET', url, status: 200, json: { ...good, extra: 1 } }).problems.join()).toMatch(/must NOT have additional properties/);
    expect(validator.verdict({ method: 'GET', url, status: 404, json: { errorCode: 'NOT_A_CODE', message: 'x', statusCode: 404 } }).problems.join()).toMatch(/errorCode must be equal to one of the allowed values/);
    expect(validator.verdict({ method: 'GET', url, status: 418, json: {} }).problems).toEqual(['GET /intents/status/v3: status 418 is not in the document']);
  });
});
