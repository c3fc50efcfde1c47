import { ChainError } from '../../errors/IntentsimError';
/** A JSON-RPC error answered by a node. */
export class JsonRpcCallError extends ChainError {
  constructor(readonly url: string, readonly method: string, readonly rpcMessage: string) {
    super(`${method} at ${url}: ${rpcMessage}`);
  }
}

/**
 * One plain JSON-RPC call over HTTP, for the few places that talk to a node before (or without)
 * a viem client: the Anvil readiness probe and attaching to an external node.
 */
export async function callJsonRpc(url: string, method: string, params: readonly unknown[] = [], signal?: AbortSignal): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    ...(signal ? { signal } : {}),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message?: string } };
  if (body.error !== undefined) throw new JsonRpcCallError(url, method, body.error.message ?? JSON.stringify(body.error));
  return body.result;
}
