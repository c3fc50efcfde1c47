import type { Address, Hex } from 'viem';
import type { ChainAdapter } from '../chains/ChainAdapter';
import type { VirtualClock } from '../clock/VirtualClock';
import type { Currency } from '../domain/chain/currency';
import { buildQuoteResponse, type QuoteResponse } from '../domain/quote/quoteResponse';
import { buildFeeSponsorshipQuoted } from '../domain/quoteOptions/feeSponsorshipView';
import { buildProtocolOrder } from '../domain/quote/protocolOrder';
import { newWaitingRequest, type NewRequestInit, type QuoteFacts, type RequestFeature } from '../domain/request/requestRecord';
import { convertAmount } from '../domain/money/usdValue';
import { canonicalJson, deriveRequestId } from '../domain/request/requestId';
import { parseBasisPoints } from '../domain/quote/slippageTolerance';
import {
  InvalidAddressError,
  InvalidRecipientError,
  InvalidSlippageToleranceError,
  UnsupportedChainError,
  UnsupportedCurrencyError,
} from '../errors/quoteErrors';
import { createRequest, type RequestLifecycle } from '../lifecycle/transitionRequest';
import type { MetaStore } from '../store/MetaStore';
import type { QuoteRequest } from './quoteRequestSchema';
import { depositChoiceOf, depositStepsFor } from './depositAddressQuote';
import { handOverDepositAddress, requestToRegenerate } from './regenerateDepositAddress';
import type { RegeneratingQuote } from '../domain/request/regeneratedRequest';
import type { DepositAddressStore } from '../store/DepositAddressStore';
import { destinationCallsOf } from './destinationCallsOf';
import { planQuoteRoute } from './planQuoteRoute';
import { parseQuoteOptions, stablecoinOn, type ParsedQuoteOptions } from './quoteOptions';
import { simulateQuotedFill } from './simulateQuotedFill';

export interface QuoteProviderDeps {
  chains: ReadonlyMap<number, ChainAdapter>;
  lifecycle: RequestLifecycle;
  meta: MetaStore;
  clock: VirtualClock;
  seed: number;
  serviceFeeBps: bigint;
  defaultSlippageBps: bigint;
  timeEstimateSeconds: (destinationChainId: number) => number;
  /** Seconds a quote's order stays fillable (protocol.v2 deadlines). */
  quoteTtlSeconds: number;
  /** The solver wallet: its address names the order's solver; it signs orderIds (SPEC §2.2). */
  solver: { address: Address; signOrderId(orderId: Hex): Promise<Hex> };
  /** The deposit-address registry: a regenerated request takes over an earlier one's address (SPEC §2.3 `supersededByRequestId`). */
  depositAddresses: DepositAddressStore;
}

const QUOTE_SEQUENCE_KEY = 'quote_sequence';

function chainFor(deps: QuoteProviderDeps, chainId: number, role: 'origin' | 'destination'): ChainAdapter {
  const chain = deps.chains.get(chainId);
  if (!chain) throw new UnsupportedChainError(chainId, role);
  return chain;
}

function currencyFor(chain: ChainAdapter, address: string): Currency {
  const currency = chain.findCurrency(address);
  if (!currency) throw new UnsupportedCurrencyError(address, chain.chainId);
  return currency;
}

/** SPEC §4.1 and §7.1: validates the slippage fields; returns the tolerance to use, in bps. */
function slippageOf(request: QuoteRequest, fallback: bigint): bigint {
  for (const field of ['slippageTolerance', 'latePaymentSlippageTolerance'] as const) {
    if (request[field] !== undefined && parseBasisPoints(request[field]) === null) {
      throw new InvalidSlippageToleranceError(field, request[field]);
    }
  }
  return request.slippageTolerance === undefined ? fallback : (parseBasisPoints(request.slippageTolerance) as bigint);
}

/**
 * The quote provider: turns a validated `POST /quote/v2` body into a stored request in
 * `waiting` and the SPEC §2.2 response. Pipeline: validate (§7.1 addresses, slippage) →
 * `planQuoteRoute` (classify §1.2, plan the destination route, price against real reserves) →
 * `simulateQuotedFill` (eth_estimateGas of the fill, §7.1 DESTINATION_TX_FAILED) → store + steps.
 */
export interface QuoteContext {
  /** The known API key the quote was made with (x-api-key), or null. */
  apiKey: string | null;
}

/** The request id `POST /price` builds with: a price creates no request. */
const PRICE_ONLY_REQUEST_ID: Hex = `0x${'0'.repeat(64)}`;

/**
 * `record`: a quote (`POST /quote/v2`, `POST /quote`) — a new request id, the request stored in
 * `waiting`. `price`: the same pricing and reads (`POST /price`), nothing stored.
 */
export async function createQuote(
  deps: QuoteProviderDeps,
  request: QuoteRequest,
  context: QuoteContext = { apiKey: null },
  mode: 'record' | 'price' = 'record',
): Promise<{ requestId: Hex; facts: QuoteFacts; response: QuoteResponse }> {
  const taken: TakenSequence = {};
  try {
    return await runQuotePipeline(deps, request, context, mode, taken);
  } catch (error) {
    taken.sequence?.store(); // a quote that fails once it has its number uses it up all the same
    throw error;
  }
}

/** The quote's sequence number once taken: stored with its request, or alone if the quote fails. */
interface TakenSequence {
  sequence?: ReturnType<MetaStore['takeCounter']>;
}

async function runQuotePipeline(
  deps: QuoteProviderDeps,
  request: QuoteRequest,
  context: QuoteContext,
  mode: 'record' | 'price',
  taken: TakenSequence,
): Promise<{ requestId: Hex; facts: QuoteFacts; response: QuoteResponse }> {
  const slippageBps = slippageOf(request, deps.defaultSlippageBps);
  const origin = chainFor(deps, request.originChainId, 'origin');
  const destination = chainFor(deps, request.destinationChainId, 'destination');

  if (!origin.isValidAddress(request.user)) {
    throw new InvalidAddressError(`user ${request.user} is not a valid address on chain ${origin.chainId}`);
  }
  if (request.recipient !== undefined) {
    if (!destination.isValidAddress(request.recipient)) {
      throw new InvalidAddressError(`recipient ${request.recipient} is not a valid address on chain ${destination.chainId}`);
    }
    const tokenAtRecipient = destination.findCurrency(request.recipient);
    if (tokenAtRecipient && !tokenAtRecipient.isNative) {
      throw new InvalidRecipientError(`recipient ${request.recipient} is the ${tokenAtRecipient.symbol} token contract, which cannot receive tokens`);
    }
  }
  const depositChoice = depositChoiceOf(request, origin);
  const currencyIn = currencyFor(origin, request.originCurrency);
  const currencyOut = currencyFor(destination, request.destinationCurrency);
  const calls = destinationCallsOf(request, destination);
  const options = parseQuoteOptions(request, { origin, destination, currencyIn, currencyOut });
  const recipientAddress = destination.normalizeAddress(request.recipient ?? request.user) as Address;

  const routeParams = {
    origin,
    destination,
    currencyIn,
    currencyOut,
    tradeType: request.tradeType,
    amount: BigInt(request.amount),
    calls,
    serviceFeeBps: deps.serviceFeeBps,
    slippageBps,
    options: options.pricing,
  };
  const user = origin.normalizeAddress(request.user) as Address;
  const recipient = recipientAddress;
  // the user's balance does not depend on the route: read it while the route is planned
  const userBalanceRead = origin.balanceOf(user, currencyIn);
  userBalanceRead.catch(() => undefined); // awaited below; never an unhandled rejection if planning fails first

  let planned = await planQuoteRoute(routeParams);
  const simulated = simulateQuotedFill({ destination, planned, currencyOut, recipient: recipientAddress, calls, exactOutput: request.tradeType === 'EXACT_OUTPUT' });
  // attached calls cost what they cost: price the fill with the gas its simulation measured
  if (calls.length > 0) planned = await planQuoteRoute({ ...routeParams, fillGasUnits: (await simulated).gasUnits });

  const sequence = mode === 'record' ? (taken.sequence = deps.meta.takeCounter(QUOTE_SEQUENCE_KEY)) : undefined;
  const requestId = sequence ? deriveRequestId({ seed: deps.seed, sequence: sequence.value, canonicalBody: canonicalJson(request) }) : PRICE_ONLY_REQUEST_ID;
  const priced = planned.priced;
  const now = deps.clock.now();
  const facts: QuoteFacts = {
    requestType: planned.requestType,
    operation: planned.operation,
    tradeType: request.tradeType,
    user,
    recipient,
    referrer: request.referrer ?? null,
    originChainId: origin.chainId,
    destinationChainId: destination.chainId,
    currencyIn,
    currencyOut,
    amounts: planned.amounts,
    serviceFeeBps: planned.serviceFeeBps,
    slippageBps,
    timeEstimateSeconds: deps.timeEstimateSeconds(destination.chainId),
    depository: origin.describe().depository as Address,
    quotedAt: now,
    features: [...depositChoice.features, ...quoteFeatures(options)],
    orderId: null,
    route: planned.route,
    calls,
    options: {
      appFees: priced.appFees,
      appFeeBps: options.pricing.appFees.reduce((sum, fee) => sum + fee.bps, 0n),
      appFee: priced.appFee,
      sponsorship: priced.sponsorship,
      sponsored: priced.sponsored,
      gasTopUp: options.gasTopUp,
      fixedRate: options.pricing.fixedRateSpreadBps === null ? null : { spreadBps: options.pricing.fixedRateSpreadBps, spread: priced.spread },
    },
  };

  // a price opens no deposit address: it stores nothing. A deposit address is opened only once the
  // fill's simulation passed; plain deposit steps are built while the simulation runs.
  const opensDepositAddress = mode === 'record' && depositChoice.depositAddress !== null;
  if (opensDepositAddress) await simulated;
  // SPEC §2.3: a new quote for the same user and route as an earlier unpaid deposit-address request regenerates it
  const regenerating: RegeneratingQuote = {
    apiKey: context.apiKey,
    user,
    recipient,
    originChainId: origin.chainId,
    originCurrency: currencyIn.address,
    destinationChainId: destination.chainId,
    destinationCurrency: currencyOut.address,
    depositAddressType: depositChoice.depositAddress?.type ?? 'open',
  };
  const regenerated = mode === 'record' ? requestToRegenerate(deps, origin, regenerating) : undefined;
  const [{ steps, init: depositInit }, userBalance] = await Promise.all([
    depositStepsFor(origin, opensDepositAddress ? depositChoice : { ...depositChoice, depositAddress: null }, {
      requestId,
      user,
      currency: currencyIn,
      amount: planned.amounts.amountIn,
      originSwap: { maxRouteLength: request.maxRouteLength, includedSources: request.includedOriginSwapSources },
      ...(regenerated?.depositAddress ? { reuseDepositAddress: regenerated.depositAddress.address } : {}),
    }),
    userBalanceRead,
    simulated,
  ]);
  const needsApproval = steps.some((step) => step.id === 'approve');

  // app fees are collected in the origin's stablecoin; a chain without one (BVM) is only asked when there are fees
  const stablecoin = priced.appFees.length > 0 ? stablecoinOn(origin) : undefined;
  const appFeesInStablecoin = stablecoin ? priced.appFees.map((fee) => ({ recipient: fee.recipient, bps: fee.bps, amount: convertAmount(fee.amount, currencyIn, stablecoin, 'down') })) : [];
  const init: NewRequestInit = {
    ...depositInit,
    apiKey: context.apiKey,
    appFees: stablecoin && appFeesInStablecoin.length > 0 ? { currency: stablecoin, quoted: appFeesInStablecoin, actual: [] } : null,
    feeSponsorship: priced.sponsorship ? { quoted: buildFeeSponsorshipQuoted(priced.sponsorship, currencyIn, options.capUsdMicros) } : null,
  };
  const order = buildProtocolOrder({
    requestId,
    facts,
    protocolChainName: (chainId) => chainFor(deps, chainId, 'origin').describe().name,
    solver: deps.solver.address,
    deadline: Math.floor(now / 1000) + deps.quoteTtlSeconds,
    refundRecipient: depositInit.refundTo ?? user,
    appFees: stablecoin ? appFeesInStablecoin.map((fee) => ({ recipient: fee.recipient, currency: stablecoin.address, amount: fee.amount })) : [],
  });
  facts.orderId = order.orderId;
  const orderSignature = options.includeProtocolData ? await deps.solver.signOrderId(order.orderId) : undefined;

  // the sequence number (and a regenerated request's hand-over) go into the request's own transaction: one commit per quote
  const handedOver = regenerated && init.depositAddress ? init.depositAddress.address : undefined;
  if (sequence) {
    createRequest(deps.lifecycle, newWaitingRequest(requestId, facts, now, init), () => {
      sequence.store();
      if (handedOver) handOverDepositAddress({ ...deps, now }, origin.chainId, handedOver, requestId, regenerating);
    });
  }

  return {
    requestId,
    facts,
    response: buildQuoteResponse({
      requestId,
      facts,
      steps,
      // a deposit by signature costs the user no gas: the relayer pays it
      depositGas: { amount: depositChoice.bySignature ? 0n : origin.gasCosts.deposit(currencyIn, needsApproval), currency: origin.nativeCurrency() },
      userBalance,
      routers: { depository: facts.depository, serviceReceiver: destination.describe().contracts.serviceReceiver },
      protocol: { v2: { ...order, ...(orderSignature ? { orderSignature } : {}) } },
    }),
  };
}

/** SPEC §4.3 `features` a quote's options turn on. */
function quoteFeatures(options: ParsedQuoteOptions): RequestFeature[] {
  const features: RequestFeature[] = [];
  if (options.pricing.appFees.some((fee) => fee.bps > 0n)) features.push('app_fees');
  if (options.gasTopUp) features.push('gas_top_up');
  if (options.pricing.fixedRateSpreadBps !== null) features.push('fixed_rate');
  return features;
}
