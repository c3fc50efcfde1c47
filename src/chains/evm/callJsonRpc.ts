import http from 'node:http';
import { ChainError } from '../../errors/IntentsimError';
import { nodeHttpFetch } from './nodeHttpFetch';
/** A JSON-RPC error answered by a node. */
export class JsonRpcCallError extends ChainError {
  constructor(readonly url: string, readonly method: string, readonly rpcMessage: string) {
    super(`${method} at ${url}: ${rpcMessage}`);
  }
}

// node:http, not the global fetch: loading undici costs ~100 ms of a cold start, and these calls
// are the first HTTP the simulator makes (no keep-alive: a probe's socket is not worth keeping)
const postOnce = nodeHttpFetch(new http.Agent({ keepAlive: false }));

/**
 * One plain JSON-RPC call over HTTP, for the few places that talk to a node before (or without)
 * a viem client: the Anvil readiness probe and attaching to an external node.
 */
export async function callJsonRpc(url: string, method: string, params: readonly unknown[] = [], signal?: AbortSignal): Promise<unknown> {
  const response = await postOnce(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: signal ?? null,
  });
  const body = JSON.parse(await response.text()) as { result?: unknown; error?: { message?: string } };
  if (body.error !== undefined) throw new JsonRpcCallError(url, method, body.error.message ?? JSON.stringify(body.error));
  return body.result;
}
