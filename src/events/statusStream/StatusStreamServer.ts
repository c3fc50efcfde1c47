import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { z } from 'zod';
import type { VirtualClock } from '../../clock/VirtualClock';
import { buildStatusEventData } from '../../domain/request/statusResponse';
import { REQUEST_STATUS_UPDATED } from '../../domain/webhook/webhookPayload';
import type { ApiKeyStore } from '../../store/ApiKeyStore';
import type { CommittedStatusChange, RequestEventBus } from '../RequestEventBus';
import { RequestIdSchema } from '../../domain/request/requestId';

/** The path of the status stream on the simulator's HTTP server. */
export const STATUS_STREAM_PATH = '/ws';

const ClientMessageSchema = z
  .object({
    type: z.enum(['subscribe', 'unsubscribe']),
    event: z.literal(REQUEST_STATUS_UPDATED),
    filters: z.object({ id: RequestIdSchema.optional() }).strict().default({}),
  })
  .strict();

/** Subscription key for "every request made with the connection's API key". */
const ALL_OF_MY_KEY = '*';

interface Connection {
  id: string;
  socket: WebSocket;
  apiKey: string | undefined;
  subscriptions: Set<string>;
}

export interface StatusStreamDeps {
  bus: RequestEventBus;
  apiKeys: ApiKeyStore;
  clock: VirtualClock;
}

/**
 * SPEC §6.4: a websocket status stream fed by the same committed status events as webhooks.
 * `ws://host:port/ws[?apiKey=KEY]`: the server greets with `{ type: "connection", status:
 * "ready", data: { id } }`; a client subscribes to a request (`filters.id`) or, with an API key,
 * to all of that key's requests (no `filters.id`); each change is sent as
 * `{ event, data: {...}, publishedAt }`. Bad messages are answered with `{ type: "error" }`.
 */
export class StatusStreamServer {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly connections = new Set<Connection>();
  private nextConnectionId = 1;
  private unsubscribe: (() => void) | undefined;
  private server: Server | undefined;
  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => this.handleUpgrade(req, socket, head);

  constructor(private readonly deps: StatusStreamDeps) {}

  attach(server: Server): void {
    this.server = server;
    server.on('upgrade', this.onUpgrade);
    this.unsubscribe = this.deps.bus.subscribe((change) => this.publish(change));
  }

  /** Closes every socket (1001 going away) and stops listening for upgrades. */
  async close(): Promise<void> {
    this.unsubscribe?.();
    this.server?.off('upgrade', this.onUpgrade);
    const closing = [...this.connections].map(
      (connection) =>
        new Promise<void>((resolve) => {
          connection.socket.once('close', () => resolve());
          connection.socket.close(1001, 'simulator stopping');
          setTimeout(() => {
            connection.socket.terminate();
            resolve();
          }, 1000).unref();
        }),
    );
    await Promise.all(closing);
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== STATUS_STREAM_PATH) return rejectUpgrade(socket, 404, 'Not Found');
    const apiKey = url.searchParams.get('apiKey') ?? undefined;
    if (apiKey !== undefined && !this.deps.apiKeys.get(apiKey)) return rejectUpgrade(socket, 401, 'Unauthorized');
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, apiKey));
  }

  private accept(socket: WebSocket, apiKey: string | undefined): void {
    const connection: Connection = { id: `ws-${this.nextConnectionId++}`, socket, apiKey, subscriptions: new Set() };
    this.connections.add(connection);
    socket.on('close', () => this.connections.delete(connection));
    socket.on('error', () => socket.terminate());
    socket.on('message', (raw, isBinary) => this.receive(connection, raw, isBinary));
    send(socket, { type: 'connection', status: 'ready', data: { id: connection.id } });
  }

  private receive(connection: Connection, raw: RawData, isBinary: boolean): void {
    if (isBinary) return sendError(connection.socket, 'messages must be JSON text');
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawToString(raw));
    } catch {
      return sendError(connection.socket, 'message is not valid JSON');
    }
    const result = ClientMessageSchema.safeParse(parsed);
    if (!result.success) {
      return sendError(connection.socket, result.error.issues.map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`).join('; '));
    }
    const message = result.data;
    const requestId = message.filters.id?.toLowerCase();
    if (requestId === undefined && connection.apiKey === undefined) {
      return sendError(connection.socket, 'filters.id is required unless the connection was opened with an apiKey');
    }
    const key = requestId ?? ALL_OF_MY_KEY;
    if (message.type === 'subscribe' && !connection.subscriptions.has(key) && connection.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
      return sendError(connection.socket, `a connection holds at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions; unsubscribe first or open another connection`);
    }
    if (message.type === 'subscribe') connection.subscriptions.add(key);
    else connection.subscriptions.delete(key);
    send(connection.socket, { type: message.type, status: 'success', data: { event: message.event, filters: message.filters } });
  }

  private publish(change: CommittedStatusChange): void {
    if (this.connections.size === 0) return;
    const full = buildStatusEventData(change.record);
    const message = {
      event: REQUEST_STATUS_UPDATED,
      data: {
        status: full.status,
        inTxHashes: full.inTxHashes,
        txHashes: full.txHashes,
        updatedAt: full.updatedAt,
        originChainId: full.originChainId,
        destinationChainId: full.destinationChainId,
        requestId: full.requestId,
      },
      publishedAt: this.deps.clock.now(),
    };
    const requestId = change.requestId.toLowerCase();
    for (const connection of this.connections) {
      const mine = connection.apiKey !== undefined && connection.apiKey === change.record.apiKey && connection.subscriptions.has(ALL_OF_MY_KEY);
      if (mine || connection.subscriptions.has(requestId)) send(connection.socket, message);
    }
  }
}

function send(socket: WebSocket, message: unknown): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}

/** Subscriptions one websocket may hold at once (each is a request id, or all of the key's requests). */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 100;

function sendError(socket: WebSocket, message: string): void {
  send(socket, { type: 'error', status: 'error', data: { message } });
}

function rawToString(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return Buffer.from(raw as ArrayBuffer).toString('utf8');
}

function rejectUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
