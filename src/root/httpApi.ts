import { createServer, type Server } from 'node:http';
import { createPublicOrigin } from '../api/publicOrigin';
import type { AddressInfo } from 'node:net';
import { chainMetadataFor } from '../../fixtures/chains';
import { createApp } from '../api/createApp';
import type { RateLimiters } from '../api/rateLimiter';
import { answerClientErrorsAsJson } from '../api/httpServerErrors';
import { AppFeeClaims } from '../appFees/AppFeeClaims';
import type { VirtualClock } from '../clock/VirtualClock';
import type { SimulatorConfig } from '../config/simulatorConfig';
import { GaslessRelay } from '../execute/GaslessRelay';
import type { SimulatorAccounts } from '../keys/simulatorAccounts';
import type { Solver } from '../solver/Solver';
import { requestFastFill } from '../solver/requestFastFill';
import type { RequestEvents } from './requestEvents';
import type { SimulatorChains } from './simulatorChains';
import type { SimulatorStores } from './simulatorStores';
import type { ApiRequestsInFlight } from '../api/apiRequestsInFlight';
import type { WorldSnapshots } from './worldSnapshots';

/** The HTTP API listening, with the websocket status stream on the same server. */
export interface HttpApi {
  port: number;
  /** Closes the status stream, then the server and every connection it holds. */
  stop(): Promise<void>;
}

/** Builds the services behind the routes (gasless relay, app fee claims, quotes) and listens on the configured host and port. */
export async function startHttpApi(
  config: SimulatorConfig,
  deps: {
    stores: SimulatorStores;
    chains: SimulatorChains;
    requestEvents: RequestEvents;
    solver: Solver;
    clock: VirtualClock;
    accounts: () => SimulatorAccounts;
    world: WorldSnapshots;
    /** The API's rate limiters, shared with the world snapshots. */
    rateLimiters: RateLimiters;
    /** The requests being answered, which a world revert holds (shared with the world snapshots). */
    requestsInFlight: ApiRequestsInFlight;
    log: (message: string, error?: unknown) => void;
  },
): Promise<HttpApi> {
  const { stores, chains, solver, clock, log } = deps;
  const { lifecycle, statusStream } = deps.requestEvents;
  const solverAccount = deps.accounts().solver;
  // claims a stopped process debited but did not see paid are paid (at most once) and settled
  const appFeeClaims = new AppFeeClaims({ chains: chains.byId, store: stores.appFees, clock, log });
  void appFeeClaims.resumePending();
  const app = createApp({
    host: config.host,
    publicOrigin: createPublicOrigin(config),
    publicUrl: config.publicUrl,
    quoteRpcScope: chains.quoteRpcScope,
    solver,
    fastFill: (params) => requestFastFill({ requests: stores.requests, solver }, params),
    chainControl: chains.control,
    world: deps.world,
    rpcFaults: chains.rpcFaults,
    chains: chains.byId,
    requests: stores.requests,
    listing: stores.listing,
    listingRatePerSecond: config.listingRatePerSecond,
    rateLimiters: deps.rateLimiters,
    apiKeys: stores.apiKeys,
    clock,
    webhooks: stores.webhooks,
    depositAddresses: stores.depositAddresses,
    solverAccount,
    log,
    appFees: appFeeClaims,
    authorize: { requests: stores.requests, authorizations: stores.authorizations, clock },
    sponsorBalances: stores.sponsorBalances,
    gaslessRelay: new GaslessRelay({
      lifecycle,
      meta: stores.meta,
      seed: config.seed,
      chains: chains.byId,
      clock,
      sponsorBalances: stores.sponsorBalances,
      relayFaultFor: (record) => solver.relayFaultFor(record),
      inclusionWindowSeconds: config.fillInclusionWindowSeconds,
      log,
    }),
    quote: {
      chains: chains.byId,
      lifecycle,
      meta: stores.meta,
      clock,
      seed: config.seed,
      serviceFeeBps: BigInt(config.serviceFeeBps),
      defaultSlippageBps: BigInt(config.defaultSlippageBps),
      timeEstimateSeconds: (chainId) => chainMetadataFor(chainId).timeEstimateSeconds,
      quoteTtlSeconds: config.quoteTtlSeconds,
      solver: { address: solverAccount.address, signOrderId: (orderId) => solverAccount.sign({ hash: orderId }) },
      depositAddresses: stores.depositAddresses,
    },
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const created = createServer(
      // a request must arrive whole within this time (checked every second), or it is answered 408
      { requestTimeout: config.httpRequestTimeoutMs, headersTimeout: Math.min(config.httpRequestTimeoutMs, 60_000), connectionsCheckingInterval: 1000 },
      deps.requestsInFlight.wrap(app),
    );
    answerClientErrorsAsJson(created);
    created.once('error', reject);
    created.listen(config.port, config.host, () => resolve(created));
  });
  statusStream.attach(server);
  return {
    port: (server.address() as AddressInfo).port,
    stop: async () => {
      try {
        await statusStream.close();
      } finally {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      }
    },
  };
}
