import type { Address, Hex } from 'viem';
import type { ChainAdapter } from '../../chains/ChainAdapter';
import type { VirtualClock } from '../../clock/VirtualClock';
import type { Currency } from '../../domain/currency';
import { buildQuoteResponse, type QuoteResponse } from '../../domain/quoteResponse';
import { newWaitingRequest, type QuoteFacts } from '../../domain/requestRecord';
import { canonicalJson, deriveRequestId } from '../../domain/requestId';
import { parseBasisPoints } from '../../domain/slippageTolerance';
import {
  InvalidAddressError,
  InvalidRecipientError,
  InvalidSlippageToleranceError,
  UnsupportedChainError,
  UnsupportedCurrencyError,
} from '../../errors/quoteErrors';
import { createRequest, type LifecycleDeps } from '../../lifecycle/transitionRequest';
import type { MetaStore } from '../../store/MetaStore';
import type { QuoteRequest } from '../schemas/quoteRequestSchema';
import { depositChoiceOf, depositStepsFor } from './depositAddressQuote';
import { destinationCallsOf } from './destinationCallsOf';
import { planQuoteRoute } from './planQuoteRoute';
import { simulateQuotedFill } from './simulateQuotedFill';

export interface QuoteProviderDeps {
  chains: ReadonlyMap<number, ChainAdapter>;
  lifecycle: LifecycleDeps;
  meta: MetaStore;
  clock: VirtualClock;
  seed: number;
  serviceFeeBps: bigint;
  defaultSlippageBps: bigint;
  timeEstimateSeconds: (destinationChainId: number) => number;
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

export async function createQuote(
  deps: QuoteProviderDeps,
  request: QuoteRequest,
  context: QuoteContext = { apiKey: null },
): Promise<{ requestId: Hex; response: QuoteResponse }> {
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
  };
  let planned = await planQuoteRoute(routeParams);
  const simulation = await simulateQuotedFill({ destination, planned, currencyOut, recipient: recipientAddress, calls, exactOutput: request.tradeType === 'EXACT_OUTPUT' });
  // attached calls cost what they cost: price the fill with the gas its simulation measured
  if (calls.length > 0) planned = await planQuoteRoute({ ...routeParams, fillGasUnits: simulation.gasUnits });

  const user = origin.normalizeAddress(request.user) as Address;
  const recipient = recipientAddress;
  const sequence = deps.meta.nextCounter(QUOTE_SEQUENCE_KEY);
  const requestId = deriveRequestId({ seed: deps.seed, sequence, canonicalBody: canonicalJson(request) });
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
    features: depositChoice.features,
    orderId: null,
    route: planned.route,
    calls,
  };

  const [{ steps, init }, userBalance] = await Promise.all([
    depositStepsFor(origin, depositChoice, { requestId, user, currency: currencyIn, amount: planned.amounts.amountIn }),
    origin.balanceOf(user, currencyIn),
  ]);
  const needsApproval = steps.some((step) => step.id === 'approve');

  const record = newWaitingRequest(requestId, facts, now, { ...init, apiKey: context.apiKey });
  createRequest(deps.lifecycle, record);

  return {
    requestId,
    response: buildQuoteResponse({
      requestId,
      facts,
      steps,
      depositGas: { amount: origin.depositGasCost(currencyIn, needsApproval), currency: origin.nativeCurrency() },
      userBalance,
      routers: { depository: facts.depository, serviceReceiver: destination.describe().contracts.serviceReceiver },
    }),
  };
}
