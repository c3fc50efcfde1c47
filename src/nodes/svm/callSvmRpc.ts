import { SvmRpcError } from './svmRpcEncoding';

/** How long one JSON-RPC call to a validator may take before it counts as failed. */
const CALL_TIMEOUT_MS = 30_000;

/**
 * One Solana JSON-RPC call over HTTP: its `result`, or an SvmRpcError with the node's code,
 * message and data. (u64 values arrive as JSON numbers; the ones this simulator reads stay below 2^53.)
 */
export async function callSvmRpc<T>(rpcUrl: string, method: string, params: unknown[] = [], signal?: AbortSignal): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: signal ?? AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  if (!response.ok) throw new SvmRpcError(-32603, `${method} at ${rpcUrl}: HTTP ${response.status}`);
  const body = (await response.json()) as { result?: T; error?: { code: number; message: string; data?: unknown } };
  if (body.error) throw new SvmRpcError(body.error.code, body.error.message, body.error.data);
  return body.result as T;
}

/**
 * One JSON-RPC request to another Solana node (a fork's upstream), given up after `timeoutMs` of
 * real time (a network call): the answer's body as text, for the caller to parse; a non-2xx
 * status rejects with it and the start of the body. A refused connection rejects as fetch does.
 */
export async function postSvmRpc(rpcUrl: string, method: string, params: unknown[], timeoutMs: number): Promise<string> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`);
  return text;
}
