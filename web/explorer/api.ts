import type { RequestRecordView } from '../../src/domain/request/requestRecordView';

/** Reads of the simulator's public API (and the explorer's read-only admin JSON), same origin. */

const KEY_STORAGE = 'intentsim.explorer.apiKey';

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

let apiKey: string | undefined;

/**
 * The API key for `/requests/v3` and the websocket: one the user entered earlier (localStorage),
 * else the default key the simulator hands to loopback clients (`/admin/explorer/session`);
 * undefined when neither (the simulator listens beyond loopback): the page asks for it.
 */
export async function resolveApiKey(): Promise<string | undefined> {
  if (apiKey) return apiKey;
  const stored = localStorage.getItem(KEY_STORAGE);
  if (stored) return (apiKey = stored);
  const response = await fetch('/admin/explorer/session');
  if (!response.ok) return undefined;
  const body = (await response.json()) as { apiKey: string | null };
  return (apiKey = body.apiKey ?? undefined);
}

export function rememberApiKey(key: string): void {
  localStorage.setItem(KEY_STORAGE, key);
  apiKey = key;
}

export function forgetApiKey(): void {
  localStorage.removeItem(KEY_STORAGE);
  apiKey = undefined;
}

export async function getJson<T>(path: string): Promise<T> {
  const headers: Record<string, string> = {};
  if (apiKey) headers['x-api-key'] = apiKey;
  const response = await fetch(path, { headers });
  const body = (await response.json().catch(() => ({}))) as { message?: string };
  if (!response.ok) throw new ApiError(response.status, `${path}: ${response.status} ${body.message ?? ''}`.trim());
  return body as T;
}

export type RequestView = RequestRecordView;

export interface ChainInfo {
  id: number;
  name: string;
  displayName: string;
  vmType: string;
  httpRpcUrl: string;
  explorerUrl: string;
  explorerPaths: { transaction: string; address: string; token: string; block?: string };
  currency: { symbol: string; decimals: number; address: string };
  erc20Currencies: Array<{ symbol: string; decimals: number; address: string }>;
}

let chainsLoading: Promise<ChainInfo[]> | undefined;

/** `GET /chains`, read once per page. */
export function chains(): Promise<ChainInfo[]> {
  chainsLoading ??= getJson<{ chains: ChainInfo[] }>('/chains').then((body) => body.chains);
  return chainsLoading;
}

export async function chainById(chainId: number): Promise<ChainInfo | undefined> {
  return (await chains()).find((chain) => chain.id === chainId);
}

/** A link to a chain's explorer page, built as an integrator builds it: `explorerUrl` + path with the value put in. */
export function explorerLink(chain: ChainInfo, kind: 'transaction' | 'address' | 'block', value: string): string {
  const template = kind === 'transaction' ? chain.explorerPaths.transaction : kind === 'address' ? chain.explorerPaths.address : (chain.explorerPaths.block ?? '/block/{BLOCK}');
  return chain.explorerUrl + template.replace(/\{TX_HASH\}|\{ADDRESS\}|\{BLOCK\}/, encodeURIComponent(value));
}

export function listRequests(query: URLSearchParams): Promise<{ requests: RequestView[]; continuation?: string }> {
  return getJson(`/requests/v3?${query.toString()}`);
}

export interface RequestDetails {
  requestId: string;
  /** Each status change with the hashes its status event reported (SPEC §6.1 `inTxHashes`, `txHashes`). */
  statusChanges: Array<{ seq: number; from: string | null; to: string; at: number; inTxHashes: string[]; txHashes: string[] }>;
  quote: Record<string, unknown> & { requestType: string; quotedAt: number; amounts: Record<string, string> };
  webhookDeliveries: Array<{
    id: number;
    status: string;
    url: string;
    state: string;
    createdAt: number;
    nextAttemptAt: number | null;
    deliveredAt: number | null;
    attempts: Array<{ attempt: number; at: number; statusCode: number | null; error: string | null }>;
  }>;
  /** The timeline's item keys in the order things happened (`timelineKeys` of src/domain/request/requestTimelineOrder.ts). */
  timeline: string[];
}

export function requestDetails(requestId: string): Promise<RequestDetails> {
  return getJson(`/admin/explorer/requests/${encodeURIComponent(requestId)}`);
}

export interface KnownContracts {
  contracts: Array<{ name: string; abi: readonly unknown[] }>;
  labels: Record<string, Record<string, string>>;
}

let contractsLoading: Promise<KnownContracts> | undefined;

export function knownContracts(): Promise<KnownContracts> {
  contractsLoading ??= getJson<KnownContracts>('/admin/explorer/contracts').catch(() => ({ contracts: [], labels: {} }));
  return contractsLoading;
}
