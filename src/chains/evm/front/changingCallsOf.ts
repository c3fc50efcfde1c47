import { changesTheChain, type JsonRpcCall } from './evmCallKinds';

/** The calls of a JSON-RPC body (one call or a batch) that change the chain; none when the body is not JSON (the node answers that). */
export function changingCallsOf(body: string): JsonRpcCall[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const calls = Array.isArray(parsed) ? parsed : [parsed];
  return calls.filter((call): call is JsonRpcCall => typeof call === 'object' && call !== null && typeof (call as JsonRpcCall).method === 'string' && changesTheChain((call as JsonRpcCall).method));
}
