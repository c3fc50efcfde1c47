import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import type { LocalAccount } from 'viem';
import type { ChainAdapter } from '../chains/ChainAdapter';
import type { QuoteRpcScope } from '../chains/QuoteRpcScope';
import type { RpcFaultStore } from '../chains/RpcFaultStore';
import type { RequestFastFillParams } from '../solver/requestFastFill';
import type { ChainControl } from '../chains/ChainControl';
import type { RequestStatus } from '../domain/request/requestStatus';
import type { VirtualClock } from '../clock/VirtualClock';
import type { ApiKeyStore } from '../store/ApiKeyStore';
import type { RequestListingStore } from '../store/RequestListingStore';
import type { RequestStore } from '../store/RequestStore';
import type { WebhookStore } from '../store/WebhookStore';
import type { DepositAddressStore } from '../store/DepositAddressStore';
import { createErrorMapper, createErrorMiddleware, JSON_BODY_LIMIT, notFoundHandler } from './errorMiddleware';
import { refuseTrailingSlash } from './refuseTrailingSlash';
import { requireJsonBody } from './requireJsonBody';
import { admitQuotesInOrder } from './quoteAdmission';
import { answerPlainStatusLookup, statusV3Bodies } from './statusFastPath';
import { answerPlainQuote } from './quoteFastPath';
import { guardAdminRoutes } from './guardAdminRoutes';
import type { QuoteProviderDeps } from '../quote/createQuote';
import { adminRoutes } from './routes/adminRoutes';
import { appFeeRoutes } from './routes/appFeeRoutes';
import { authorizeRoutes } from './routes/authorizeRoutes';
import type { AppFeeClaims } from '../appFees/AppFeeClaims';
import type { AuthorizeDeps } from '../authorize/authorizeNonceMapping';
import { chainRoutes } from './routes/chainRoutes';
import type { PublicOrigin } from './publicOrigin';
import { chainLookupRoutes } from './routes/chainLookupRoutes';
import { configRoutes } from './routes/configRoutes';
import { currencyRoutes } from './routes/currencyRoutes';
import { depositAddressRoutes } from './routes/depositAddressRoutes';
import { explorerRoutes } from './routes/explorerRoutes';
import { openapiRoutes } from './routes/openapiRoutes';
import { fastFillRoutes } from './routes/fastFillRoutes';
import { executeRoutes } from './routes/executeRoutes';
import type { GaslessRelay } from '../execute/GaslessRelay';
import type { SponsorBalanceStore } from '../store/SponsorBalanceStore';
import { faultRoutes } from './routes/faultRoutes';
import { controlRoutes } from './routes/controlRoutes';
import { worldRoutes, type WorldSnapshotService } from './routes/worldRoutes';
import { exchangeAccountRoutes } from './routes/exchangeAccountRoutes';
import { priceRoutes } from './routes/priceRoutes';
import { answerQuoteBody, quoteRoutes } from './routes/quoteRoutes';
import { requestListingRoutes } from './routes/requestListingRoutes';
import { signatureRoutes } from './routes/signatureRoutes';
import { solverRuleRoutes, type SolverRuleRouteDeps } from './routes/solverRuleRoutes';
import { statusRoutes } from './routes/statusRoutes';
import { transactionRoutes } from './routes/transactionRoutes';
import { webhookAdminRoutes } from './routes/webhookAdminRoutes';
import type { RateLimiters } from './rateLimiter';

export interface AppDeps {
  chains: ReadonlyMap<number, ChainAdapter>;
  requests: RequestStore;
  listing: RequestListingStore;
  quote: QuoteProviderDeps;
  apiKeys: ApiKeyStore;
  clock: VirtualClock;
  webhooks: WebhookStore;
  /** Deposit addresses handed out by quotes (the reindex look-up). */
  depositAddresses: DepositAddressStore;
  solverAccount: LocalAccount;
  log: (message: string, error?: unknown) => void;
  /** Quote routes run in this scope, where the chains apply the quote RPC timeout and faults. */
  quoteRpcScope: QuoteRpcScope;
  solver: SolverRuleRouteDeps['solver'];
  /** SPEC §1.6 `POST /fast-fill` (`requestFastFill` over the solver). */
  fastFill: (params: RequestFastFillParams) => Promise<{ requestId: string; status: RequestStatus }>;
  /** The control plane's time and chains (`/admin/clock`, `/admin/chains/…`). */
  chainControl: ChainControl;
  /** The whole world's snapshots (`/admin/snapshot`, `/admin/revert`, `/admin/reset`). */
  world: WorldSnapshotService;
  rpcFaults: RpcFaultStore;
  /** SPEC §1.6 gasless execution and swaps (`/execute`, `/execute/permits`). */
  gaslessRelay: GaslessRelay;
  sponsorBalances: SponsorBalanceStore;
  /** The address the server binds: beyond loopback, admin routes need the default API key. */
  host: string;
  /** Where the URLs the API hands out point (`--public-url`, or the Host each client used on a wildcard host; docs/shared-host.md). */
  publicOrigin: PublicOrigin;
  /** `--public-url`: the API is reached from other machines, so admin routes need the default key even on a loopback host. */
  publicUrl?: string | undefined;
  /** SPEC §1.6 app fee balances and claims. */
  appFees: AppFeeClaims;
  /** SPEC §4.7 `POST /authorize`. */
  authorize: AuthorizeDeps;
  /** `GET /requests/v3` requests per second per key (SPEC §8: 20). */
  listingRatePerSecond: number;
  /** The API's rate limiters (the world snapshots hold their counts). */
  rateLimiters: RateLimiters;
}

/** What `node:http` calls with each request. */
export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The HTTP API: one express app, the routes of SPEC §4, one error mapping; in front of it, the
 * status look-up clients poll in a loop (`answerPlainStatusLookup`) and plain JSON quotes
 * (`answerPlainQuote`: the same admission queue, RPC scope and error mapping), answered without express.
 */
export function createApp(deps: AppDeps): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const statusV3Body = statusV3Bodies(deps.requests);
  // one queue and one error mapping for the quotes express answers and those answered before it
  const admitQuote = admitQuotesInOrder();
  const mapError = createErrorMapper(deps.log);
  app.use(refuseTrailingSlash);
  app.use(guardAdminRoutes(deps));
  app.use(requireJsonBody);
  app.use(express.json({ limit: JSON_BODY_LIMIT, inflate: false }));
  // the routes clients call in a loop come first: express tries each router in turn (paths never overlap)
  app.use(statusRoutes({ requests: deps.requests, statusV3Body }));
  app.use(['/quote', '/quote/v2', '/price'], admitQuote, deps.quoteRpcScope.middleware);
  app.use(quoteRoutes(deps.quote, deps.apiKeys));
  app.use(priceRoutes(deps.quote));
  app.use(chainRoutes(deps));
  app.use(chainLookupRoutes(deps));
  app.use(currencyRoutes(deps));
  app.use(configRoutes(deps));
  app.use(requestListingRoutes(deps));
  app.use(transactionRoutes(deps));
  app.use(depositAddressRoutes(deps));
  app.use(signatureRoutes(deps));
  app.use(adminRoutes(deps));
  app.use(faultRoutes(deps));
  app.use(controlRoutes(deps));
  app.use(worldRoutes(deps));
  app.use(exchangeAccountRoutes(deps));
  app.use(solverRuleRoutes(deps));
  app.use(webhookAdminRoutes(deps));
  app.use(fastFillRoutes(deps));
  app.use(openapiRoutes());
  app.use(explorerRoutes(deps));
  app.use(appFeeRoutes(deps));
  app.use(authorizeRoutes(deps.authorize));
  app.use(executeRoutes(deps));
  app.use(notFoundHandler);
  app.use(createErrorMiddleware(deps.log, mapError));
  const answeredStatus = answerPlainStatusLookup(statusV3Body);
  const answeredQuote = answerPlainQuote({
    answer: (body, headers) => answerQuoteBody(deps.quote, deps.apiKeys, body, headers),
    admit: admitQuote,
    inRpcScope: (work) => deps.quoteRpcScope.run(work),
    mapError,
  });
  return (req, res) => {
    if (!answeredStatus(req, res) && !answeredQuote(req, res)) app(req, res);
  };
}
