import WebSocket, { type RawData } from 'ws';
import { changingCallsOf } from './changingCallsOf';
import type { JsonRpcCall } from './evmCallKinds';

/**
 * Relays one client's websocket to the node's, message for message, in order (`eth_subscribe`
 * notifications included): a message whose calls change the chain waits for `beforeForward`
 * (gate and journal) first, and the messages after it wait their turn.
 */
export function relayWebSocket(client: WebSocket, upstreamUrl: string, beforeForward: (calls: JsonRpcCall[]) => Promise<void>): void {
  const upstream = new WebSocket(upstreamUrl);
  const opened = new Promise<void>((resolve, reject) => {
    upstream.once('open', resolve);
    upstream.once('error', reject);
  });
  opened.catch(() => undefined); // a message waiting on it says it; a client gone first is no error
  let queue: Promise<void> = opened;
  const closeBoth = () => {
    if (client.readyState === WebSocket.OPEN || client.readyState === WebSocket.CONNECTING) client.close();
    if (upstream.readyState === WebSocket.OPEN || upstream.readyState === WebSocket.CONNECTING) upstream.terminate();
  };
  client.on('message', (data: RawData, isBinary: boolean) => {
    const calls = isBinary ? [] : changingCallsOf(data.toString());
    queue = queue
      .then(async () => {
        if (calls.length > 0) await beforeForward(calls);
        upstream.send(data, { binary: isBinary });
      })
      .catch(closeBoth);
  });
  upstream.on('message', (data: RawData, isBinary: boolean) => {
    if (client.readyState === WebSocket.OPEN) client.send(data, { binary: isBinary });
  });
  upstream.on('close', closeBoth);
  upstream.on('error', closeBoth);
  client.on('close', closeBoth);
  client.on('error', closeBoth);
}
