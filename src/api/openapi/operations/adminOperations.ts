import { z } from 'zod';
import { SolverRuleInputSchema } from '../../../domain/fill/solverRules';
import { RequestIdSchema } from '../../../domain/request/requestId';
import { WebhookEndpointSettingsSchema } from '../../../domain/webhook/webhookEndpoint';
import { CreateApiKeySchema } from '../../routes/adminRoutes';
import { ChainIdParam, controlBodySchemas } from '../../routes/controlRoutes';
import { SponsorBalanceSchema } from '../../routes/executeRoutes';
import { ClearSchema, FaultSchema } from '../../routes/faultRoutes';
import { ExchangeAccountBodySchema, ExchangeAccountParams } from '../../routes/exchangeAccountRoutes';
import { DeliveriesQuerySchema } from '../../routes/webhookAdminRoutes';
import { worldBodySchemas } from '../../routes/worldRoutes';
import { BODY_ERRORS, mergeErrors, type ApiOperation, type HttpMethod } from '../apiOperation';

/** Admin answers are the simulator's own (docs/control-plane.md): described as JSON objects. */
const AdminAnswerSchema = z.looseObject({});
const ApiKeyPathSchema = z.object({ apiKey: z.string() });
const RulePathSchema = z.object({ id: z.string() });
const ExplorerRequestPathSchema = z.object({ requestId: RequestIdSchema });

const CHAIN_ERRORS = { 400: ['INVALID_INPUT_PARAMS', 'CHEAT_CALL_REFUSED', 'UNSUPPORTED_ON_CHAIN'], 404: ['UNKNOWN_CHAIN'] };
const API_KEY_ERRORS = { 401: ['INVALID_API_KEY'], 404: ['API_KEY_NOT_FOUND'] };

function admin(method: HttpMethod, path: string, operationId: string, summary: string, tag: string, parts: Partial<ApiOperation> = {}): ApiOperation {
  const errors = mergeErrors(parts.body ? BODY_ERRORS : {}, { 403: ['ADMIN_KEY_REQUIRED'] }, parts.errors ?? {});
  return { method, path, operationId, summary, tag, response: AdminAnswerSchema, ...parts, errors };
}

const chainCheat = (name: string, body: z.ZodType, summary: string) =>
  admin('post', `/admin/chains/{chainId}/${name}`, `postChain${name.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase())}`, summary, 'Clock and chains', { params: ChainIdParam, body, errors: CHAIN_ERRORS });

/** The simulator's control plane (docs/control-plane.md): not part of the service's surface, so `GET /admin/openapi.json`. */
export const ADMIN_OPERATIONS: readonly ApiOperation[] = [
  admin('get', '/admin/api-keys', 'listApiKeys', 'The API keys', 'API keys'),
  admin('post', '/admin/api-keys', 'createApiKey', 'Make an API key', 'API keys', { body: CreateApiKeySchema, successStatus: 201 }),
  admin('get', '/admin/api-keys/{apiKey}/webhook', 'getWebhookEndpoint', "An API key's webhook endpoint", 'Webhooks', { params: ApiKeyPathSchema, errors: { 404: ['API_KEY_NOT_FOUND', 'WEBHOOK_NOT_CONFIGURED'] } }),
  admin('put', '/admin/api-keys/{apiKey}/webhook', 'putWebhookEndpoint', "Set an API key's webhook endpoint (SPEC §6.1)", 'Webhooks', { params: ApiKeyPathSchema, body: WebhookEndpointSettingsSchema, errors: API_KEY_ERRORS }),
  admin('delete', '/admin/api-keys/{apiKey}/webhook', 'deleteWebhookEndpoint', "Remove an API key's webhook endpoint", 'Webhooks', { params: ApiKeyPathSchema, successStatus: 204, errors: { 404: ['API_KEY_NOT_FOUND', 'WEBHOOK_NOT_CONFIGURED'] } }),
  admin('get', '/admin/webhook-deliveries', 'listWebhookDeliveries', 'Webhook deliveries and their attempts', 'Webhooks', { query: DeliveriesQuerySchema, errors: { 400: ['INVALID_INPUT_PARAMS'] } }),
  admin('get', '/admin/clock', 'getClock', 'The virtual clock', 'Clock and chains'),
  admin('post', '/admin/clock/advance', 'advanceClock', 'Move the virtual clock (and the chains) forward', 'Clock and chains', { body: controlBodySchemas.advance }),
  chainCheat('mine', controlBodySchemas.mine, 'Mine blocks'),
  chainCheat('automine', controlBodySchemas.automine, 'Turn automine on or off'),
  chainCheat('interval-mining', controlBodySchemas.intervalMining, 'Mine every n seconds'),
  chainCheat('reorg', controlBodySchemas.reorg, 'Reorganise the last blocks'),
  admin('post', '/admin/chains/{chainId}/snapshot', 'postChainSnapshot', 'Snapshot a chain', 'Clock and chains', { params: ChainIdParam, successStatus: 201, errors: CHAIN_ERRORS }),
  chainCheat('revert', controlBodySchemas.revert, 'Revert a chain to a snapshot'),
  admin('post', '/admin/snapshot', 'postWorldSnapshot', 'Snapshot the whole world: every chain, the requests, webhooks, solver rules, faults, the clock', 'World snapshots', {
    body: worldBodySchemas.snapshot,
    successStatus: 201,
    errors: { 400: ['UNSUPPORTED_ON_CHAIN'] },
  }),
  admin('post', '/admin/revert', 'postWorldRevert', 'Revert the whole world to a snapshot (used up unless kept; later ones dropped)', 'World snapshots', {
    body: worldBodySchemas.revert,
    errors: { 404: ['SNAPSHOT_NOT_FOUND'] },
  }),
  admin('post', '/admin/reset', 'postWorldReset', 'Back to the world as the start left it', 'World snapshots', { errors: { 400: ['UNSUPPORTED_ON_CHAIN'] } }),
  admin('post', '/admin/chains/{chainId}/accounts/{account}', 'postExchangeAccount', 'Pause an exchange account, revoke its API key or set its collateral', 'Clock and chains', {
    params: ExchangeAccountParams,
    body: ExchangeAccountBodySchema,
    errors: mergeErrors(CHAIN_ERRORS, { 400: ['UNSUPPORTED_ON_CHAIN'] }),
  }),
  admin('get', '/admin/faults', 'listFaults', "The quote-time RPC faults and the chains' dropped transactions", 'Faults'),
  admin('post', '/admin/faults', 'addFault', 'Make a chain RPC fail at quote time, or drop transactions (Solana)', 'Faults', { body: FaultSchema, successStatus: 201, errors: { 400: ['UNSUPPORTED_ON_CHAIN'] } }),
  admin('delete', '/admin/faults', 'clearFaults', 'Clear the faults (of one chain)', 'Faults', { query: ClearSchema, errors: { 400: ['INVALID_INPUT_PARAMS'] } }),
  admin('get', '/admin/solver/rules', 'listSolverRules', 'The solver rules', 'Solver'),
  admin('post', '/admin/solver/rules', 'addSolverRule', 'Tell the solver what to do with matching requests', 'Solver', { body: SolverRuleInputSchema, successStatus: 201 }),
  admin('delete', '/admin/solver/rules', 'clearSolverRules', 'Remove every solver rule', 'Solver'),
  admin('delete', '/admin/solver/rules/{id}', 'deleteSolverRule', 'Remove one solver rule', 'Solver', { params: RulePathSchema, errors: { 404: ['SOLVER_RULE_NOT_FOUND'] } }),
  admin('get', '/admin/sponsor-balances/{apiKey}', 'getSponsorBalance', "An API key's sponsor balance", 'API keys', { params: ApiKeyPathSchema, errors: API_KEY_ERRORS }),
  admin('put', '/admin/sponsor-balances/{apiKey}', 'putSponsorBalance', "Set an API key's sponsor balance", 'API keys', { params: ApiKeyPathSchema, body: SponsorBalanceSchema, errors: API_KEY_ERRORS }),
  admin('get', '/admin/explorer/session', 'getExplorerSession', 'What the explorer page shows of this run', 'Explorer'),
  admin('get', '/admin/explorer/contracts', 'getExplorerContracts', 'The contracts the explorer decodes', 'Explorer'),
  admin('get', '/admin/explorer/requests/{requestId}', 'getExplorerRequest', "A request's timeline", 'Explorer', { params: ExplorerRequestPathSchema, errors: { 400: ['INVALID_INPUT_PARAMS'], 404: ['REQUEST_NOT_FOUND'] } }),
];
