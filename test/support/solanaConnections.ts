import { Connection, type Commitment } from '@solana/web3.js';

/** The websocket client inside a web3.js Connection (rpc-websockets), as much of it as closing needs. */
interface ConnectionWebSocket {
  setAutoReconnect(reconnect: boolean): void;
  close(code?: number): void;
  reconnect_timer_id?: ReturnType<typeof setTimeout>;
}

const opened = new Set<Connection>();

/**
 * A web3.js Connection closed at the end of the test file that made it (closeSolanaConnections,
 * run by test/support/closeClients.setup.ts). A Connection opens a websocket for its
 * subscriptions (confirmTransaction, sendAndConfirmTransaction) that reconnects forever once its
 * node is gone: the worker outlives the file (`isolate: false`), and every attempt printed
 * `ws error: connect ECONNREFUSED` into the tests after it.
 */
export function solanaConnection(rpcUrl: string, commitment: Commitment = 'confirmed'): Connection {
  const connection = new Connection(rpcUrl, commitment);
  opened.add(connection);
  return connection;
}

/** Closes the websocket of every Connection made since the last call: no reconnect, none scheduled. */
export function closeSolanaConnections(): void {
  for (const connection of opened) {
    const socket = (connection as unknown as { _rpcWebSocket: ConnectionWebSocket })._rpcWebSocket;
    socket.setAutoReconnect(false);
    clearTimeout(socket.reconnect_timer_id);
    socket.close(1000);
  }
  opened.clear();
}
