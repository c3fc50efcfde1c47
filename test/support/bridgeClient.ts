import { createPublicClient, createWalletClient, http, zeroAddress, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { RunningSimulator } from '../../src/simulator';
import type { QuoteResponseBody, StatusBody } from './apiBodies';
import { evmChainOf } from './evmChainOf';

/** What a plain-viem integrator does: quote over HTTP, send each step item, poll status. */
export interface QuoteBody {
  user: string;
  originChainId: number;
  destinationChainId: number;
  originCurrency: string;
  destinationCurrency: string;
  amount: string;
  tradeType: 'EXACT_INPUT' | 'EXPECTED_OUTPUT' | 'EXACT_OUTPUT';
  recipient?: string;
  [key: string]: unknown;
}

/**
 * JSON POST. `T` names the body's shape (e.g. `QuoteResponseBody`, `ApiErrorBody`); left out, the
 * body is untyped: most tests read a few fields of many different shapes and assert them.
 */
// the one documented `any` of the test helpers: see above
export async function postJson<T = any>(url: string, body: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as T };
}

/** Any method, JSON in and out, with optional headers (admin routes, x-api-key routes). */
// untyped unless `T` is given, as postJson
export async function requestJson<T = any>(url: string, init: { method: string; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: T }> {
  const response = await fetch(url, {
    method: init.method,
    headers: { 'content-type': 'application/json', ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** A native-currency EXACT_INPUT bridge body (chain 1 → 8453 unless overridden). */
export function nativeBridgeBody(user: string, overrides: Partial<QuoteBody> = {}): QuoteBody {
  return {
    user,
    originChainId: 1,
    destinationChainId: 8453,
    originCurrency: zeroAddress,
    destinationCurrency: zeroAddress,
    amount: '10000000000000000',
    tradeType: 'EXACT_INPUT',
    ...overrides,
  };
}

// untyped unless `T` is given, as postJson
export async function getJson<T = any>(url: string): Promise<{ status: number; body: T }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as T };
}

/** The USDC address a simulator lists for a chain (`GET /chains`). */
export async function usdcOf(baseUrl: string, chainId: number): Promise<Address> {
  const { body } = await getJson(`${baseUrl}/chains`);
  return body.chains.find((chain: { id: number }) => chain.id === chainId).erc20Currencies.find((currency: { symbol: string }) => currency.symbol === 'USDC').address as Address;
}

export function publicClientFor(sim: RunningSimulator, chainId: number): PublicClient {
  const chain = evmChainOf(sim, chainId);
  return createPublicClient({ chain: chain.viemChain(), transport: http(chain.rpcUrl) });
}

/** Sends every step item of a quote from the account, waiting for each receipt. */
export async function executeQuoteSteps(sim: RunningSimulator, privateKey: Hex, quote: Pick<QuoteResponseBody, 'steps'>): Promise<Hex[]> {
  const account = privateKeyToAccount(privateKey);
  const hashes: Hex[] = [];
  for (const step of quote.steps) {
    for (const item of step.items) {
      const chain = evmChainOf(sim, item.data.chainId);
      const wallet = createWalletClient({ account, chain: chain.viemChain(), transport: http(chain.rpcUrl) });
      const hash = await wallet.sendTransaction({ to: item.data.to as Address, data: item.data.data as Hex, value: BigInt(item.data.value) });
      const receipt = await publicClientFor(sim, item.data.chainId).waitForTransactionReceipt({ hash, pollingInterval: 5 });
      if (receipt.status !== 'success') throw new Error(`step ${step.id} reverted`);
      hashes.push(hash);
    }
  }
  return hashes;
}

/** Polls the status endpoint until the request settles (success, failure or refund). */
export async function waitForSettledStatus(baseUrl: string, requestId: string, timeoutMs = 30_000): Promise<StatusBody> {
  const started = Date.now();
  for (;;) {
    const { body } = await getJson<StatusBody>(`${baseUrl}/intents/status/v3?requestId=${requestId}`);
    if (['success', 'failure', 'refund'].includes(body.status)) return body;
    if (Date.now() - started > timeoutMs) throw new Error(`request ${requestId} still ${body.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
