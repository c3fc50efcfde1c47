import type { z } from 'zod';
import { QuoteRequestSchema } from '../../../quote/quoteRequestSchema';
import { listingQuerySchema } from '../../listing/parseListingQuery';
import { ExecuteSchema, PermitBodySchema, PermitQuerySchema } from '../../routes/executeRoutes';
import { FastFillSchema } from '../../routes/fastFillRoutes';
import { SignatureParamsSchema } from '../../routes/signatureRoutes';
import { StatusQuerySchema } from '../../routes/statusRoutes';
import { BODY_ERRORS, mergeErrors, type ApiOperation } from '../apiOperation';
import { ExecuteAcceptedSchema, MessageResponseSchema } from '../schemas/actionResponseSchemas';
import { ChainsResponseSchema } from '../schemas/chainResponseSchema';
import { SignatureV2Schema, StatusV1Schema, StatusV2Schema } from '../schemas/publishedLookupSchemas';
import { PriceResponseSchema, QuoteResponseSchema } from '../schemas/quoteResponseSchema';
import { LegacyRequestPageSchema, RequestPageSchema } from '../schemas/requestRecordResponseSchema';
import { SignatureResponseSchema } from '../schemas/signatureResponseSchema';
import { StatusResponseSchema } from '../schemas/statusResponseSchemas';

/** SPEC §7.1 and the quote pipeline's own refusals. */
const QUOTE_ERRORS = mergeErrors(BODY_ERRORS, {
  400: [
    'INVALID_ADDRESS', 'INVALID_RECIPIENT', 'INVALID_SLIPPAGE_TOLERANCE', 'AMOUNT_TOO_LOW', 'DESTINATION_TX_FAILED', 'REQUEST_TIMED_OUT', 'RPC_HTTP_ERROR',
    'UNSUPPORTED_CHAIN', 'UNSUPPORTED_CURRENCY', 'UNSUPPORTED_ON_CHAIN', 'SOLVER_CAPACITY_EXCEEDED', 'NO_SWAP_ROUTES_FOUND', 'INSUFFICIENT_POOL_LIQUIDITY', 'TRANSACTION_TOO_LARGE',
  ],
  401: ['INVALID_API_KEY'],
});
const LOOKUP_BY_ID_ERRORS = { 400: ['INVALID_INPUT_PARAMS'], 404: ['REQUEST_NOT_FOUND'] };
const RATE_LIMIT_HEADERS = { 'RateLimit-Policy': 'the rate limit of this route (SPEC §8)', 'RateLimit-Remaining': 'requests left in the window' };
const DEPRECATION_HEADERS = { Deprecation: 'RFC 9745', Sunset: 'RFC 8594: the retirement date', Link: '`</requests/v3>; rel="successor-version"`', ...RATE_LIMIT_HEADERS };
const LISTING_ERRORS = { 400: ['INVALID_INPUT_PARAMS', 'INVALID_CONTINUATION'], 429: ['TOO_MANY_REQUESTS'] };

/** SPEC §4.1–§4.5 and §1.6: chains, quotes, status, listing, signatures, fast fill, gasless execution. */
export const QUOTE_AND_REQUEST_OPERATIONS: readonly ApiOperation[] = [
  { method: 'get', path: '/chains', operationId: 'getChains', summary: 'SPEC §4.4: the chains and their currencies, contracts and RPCs', tag: 'Chains', response: ChainsResponseSchema, errors: {} },
  { method: 'post', path: '/quote/v2', operationId: 'postQuoteV2', summary: 'SPEC §4.1: a quote, with the steps to execute it', tag: 'Quotes', body: QuoteRequestSchema, response: QuoteResponseSchema, errors: QUOTE_ERRORS, apiKey: 'optional' },
  { method: 'post', path: '/quote', operationId: 'postQuote', summary: 'SPEC §4.7: the older quote (same body and answer as /quote/v2)', tag: 'Quotes', body: QuoteRequestSchema, response: QuoteResponseSchema, errors: QUOTE_ERRORS, apiKey: 'optional' },
  { method: 'post', path: '/price', operationId: 'postPrice', summary: 'SPEC §4.7: a lightweight quote (fees and details, no steps)', tag: 'Quotes', body: QuoteRequestSchema, response: PriceResponseSchema, errors: QUOTE_ERRORS },
  { method: 'get', path: '/intents/status/v3', operationId: 'getStatusV3', summary: 'SPEC §4.2: the status of a request', tag: 'Status', query: StatusQuerySchema, response: StatusResponseSchema, errors: LOOKUP_BY_ID_ERRORS },
  { method: 'get', path: '/intents/status/v2', operationId: 'getStatusV2', summary: 'The older execution status (v2 status names)', tag: 'Status', query: StatusQuerySchema, response: StatusV2Schema, errors: LOOKUP_BY_ID_ERRORS, deprecated: true },
  { method: 'get', path: '/intents/status', operationId: 'getStatusV1', summary: 'The oldest execution status (v1 status names)', tag: 'Status', query: StatusQuerySchema, response: StatusV1Schema, errors: LOOKUP_BY_ID_ERRORS, deprecated: true },
  {
    method: 'get', path: '/requests/v3', operationId: 'getRequestsV3', summary: 'SPEC §4.3: list requests (filters, sort, continuation)', tag: 'Requests',
    query: listingQuerySchema('v3') as z.ZodObject, response: RequestPageSchema, apiKey: 'required', responseHeaders: RATE_LIMIT_HEADERS,
    errors: { ...LISTING_ERRORS, 401: ['MISSING_API_KEY', 'INVALID_API_KEY'] },
  },
  ...(['v2', 'v1'] as const).map((dialect): ApiOperation => ({
    method: 'get', path: dialect === 'v2' ? '/requests/v2' : '/requests', operationId: dialect === 'v2' ? 'getRequestsV2' : 'getRequestsV1',
    summary: 'SPEC §9: the deprecated listing, in its older field names (retired on 2026-11-24)', tag: 'Requests', deprecated: true,
    query: listingQuerySchema(dialect) as z.ZodObject, response: LegacyRequestPageSchema, apiKey: 'optional', responseHeaders: DEPRECATION_HEADERS,
    errors: { ...LISTING_ERRORS, 401: ['INVALID_API_KEY'], 410: ['ENDPOINT_RETIRED'] },
  })),
  { method: 'get', path: '/requests/{requestId}/signature', operationId: 'getRequestSignature', summary: 'SPEC §4.5: the solver-signed order parameters', tag: 'Requests', params: SignatureParamsSchema, response: SignatureResponseSchema, errors: LOOKUP_BY_ID_ERRORS },
  { method: 'get', path: '/requests/{requestId}/signature/v2', operationId: 'getRequestSignatureV2', summary: 'The v2 signature look-up (origin and destination currencies)', tag: 'Requests', params: SignatureParamsSchema, response: SignatureV2Schema, errors: LOOKUP_BY_ID_ERRORS },
  {
    method: 'post', path: '/fast-fill', operationId: 'postFastFill', summary: 'SPEC §1.6 fast fill: the solver fills a waiting request now', tag: 'Execution', body: FastFillSchema, response: MessageResponseSchema, apiKey: 'required',
    errors: mergeErrors(BODY_ERRORS, { 400: ['FAST_FILL_REJECTED'], 401: ['MISSING_API_KEY', 'INVALID_API_KEY'], 404: ['REQUEST_NOT_FOUND'], 409: ['FAST_FILL_NOT_ALLOWED'] }),
  },
  {
    method: 'post', path: '/execute', operationId: 'postExecute', summary: 'SPEC §1.6 gasless execution: the relayer sends a raw call', tag: 'Execution', body: ExecuteSchema, response: ExecuteAcceptedSchema, apiKey: 'optional',
    errors: mergeErrors(BODY_ERRORS, { 400: ['EXECUTION_REVERTED', 'UNSUPPORTED_ON_CHAIN', 'UNSUPPORTED_CHAIN', 'DEPOSIT_CHAIN_MISMATCH', 'SPONSOR_BALANCE_TOO_LOW'], 401: ['INVALID_API_KEY'], 404: ['REQUEST_NOT_FOUND'], 409: ['REQUEST_NOT_WAITING'] }),
  },
  {
    method: 'post', path: '/execute/permits', operationId: 'postExecutePermits', summary: "SPEC §1.6 gasless swaps: the relayer deposits with the user's EIP-3009 signature", tag: 'Execution',
    query: PermitQuerySchema, body: PermitBodySchema, response: ExecuteAcceptedSchema,
    errors: mergeErrors(BODY_ERRORS, { 400: ['EXECUTION_REVERTED', 'UNSUPPORTED_ON_CHAIN', 'INVALID_SIGNATURE'], 404: ['REQUEST_NOT_FOUND'], 409: ['REQUEST_NOT_WAITING'] }),
  },
];
