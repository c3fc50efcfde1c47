import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectableHost } from '../../config/listenHost';
import { WebSocketServer, type WebSocket } from 'ws';
import type { SvmLedger } from './SvmLedger';
import { svmRpcMethods } from './svmRpcMethods';
import { withReadThrough } from './svmReadThroughMethods';
import { SvmRpcError, stringifyRpcJson } from './svmRpcEncoding';
import { SvmSubscriptions } from './SvmSubscriptions';
import { readJsonRpcBody } from '../readRequestBody';

export interface SvmRpcEndpoints {
  rpcUrl: string;
  /** The websocket: the RPC port + 1, where `new Connection(rpcUrl)` looks for it. */
  wsUrl: string;
}

interface JsonRpcRequest {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** How many port pairs to try when the port after a free one is taken. */
const PORT_PAIR_ATTEMPTS = 20;

/**
 * The project's own Solana JSON-RPC in front of the ledger: HTTP on one port, the websocket
 * subscriptions on the next one (as `solana-test-validator` serves them, and where `Connection`
 * derives them). Batches, the JSON-RPC 2.0 error shape, and u64 values as exact JSON numbers.
 */
export class SvmJsonRpcServer {
  private http: Server | undefined;
  private wss: WebSocketServer | undefined;
  private readonly methods: ReturnType<typeof withReadThrough>;
  private readonly subscriptions: SvmSubscriptions;
  private rpcUrl: string | undefined;

  constructor(
    private readonly ledger: SvmLedger,
    private readonly options: { host: string; port?: number },
  ) {
    this.methods = withReadThrough(ledger, svmRpcMethods(ledger, () => ({ rpcUrl: this.rpcUrl })));
    this.subscriptions = new SvmSubscriptions(ledger);
  }

  async start(): Promise<SvmRpcEndpoints> {
    const fixedPort = this.options.port !== undefined && this.options.port !== 0;
    for (let attempt = 0; attempt < PORT_PAIR_ATTEMPTS; attempt++) {
      const http = createServer((req, res) => void this.serveHttp(req, res));
      const port = await listen(http, this.options.host, fixedPort ? this.options.port! : 0);
      const wss = await listenWebSocket(this.options.host, port + 1).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRINUSE' && !fixedPort) return undefined;
        throw error;
      });
      if (!wss) {
        await new Promise((resolve) => http.close(resolve));
        continue;
      }
      wss.on('connection', (socket) => this.serveSocket(socket));
      this.http = http;
      this.wss = wss;
      const host = connectableHost(this.options.host);
      this.rpcUrl = `http://${host}:${port}`;
      return { rpcUrl: `http://${host}:${port}`, wsUrl: `ws://${host}:${port + 1}` };
    }
    throw new Error(`no free pair of ports (RPC and RPC + 1) on ${this.options.host} after ${PORT_PAIR_ATTEMPTS} tries`);
  }

  async stop(): Promise<void> {
    this.subscriptions.close();
    for (const client of this.wss?.clients ?? []) client.terminate();
    await new Promise((resolve) => (this.wss ? this.wss.close(resolve) : resolve(undefined)));
    this.http?.closeAllConnections();
    await new Promise((resolve) => (this.http ? this.http.close(resolve) : resolve(undefined)));
  }

  /** Answers one JSON-RPC request object (HTTP bodies and websocket messages alike). */
  async answer(request: JsonRpcRequest): Promise<Record<string, unknown>> {
    const id = request.id ?? null;
    try {
      if (request.jsonrpc !== '2.0' || typeof request.method !== 'string') throw new SvmRpcError(-32600, 'Invalid request');
      const params = request.params === undefined ? [] : request.params;
      if (!Array.isArray(params)) throw new SvmRpcError(-32602, 'Invalid params: expected an array');
      const method = Object.hasOwn(this.methods, request.method) ? this.methods[request.method] : undefined;
      if (!method) throw new SvmRpcError(-32601, 'Method not found');
      return { jsonrpc: '2.0', result: await method(params), id };
    } catch (error) {
      if (error instanceof SvmRpcError) return { jsonrpc: '2.0', error: { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) }, id };
      return { jsonrpc: '2.0', error: { code: -32603, message: `Internal error: ${error instanceof Error ? error.message : String(error)}` }, id };
    }
  }

  private async serveHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // any page may call the RPC, as Solana's public RPC and Anvil allow (the simulator's explorer does)
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      return void res.writeHead(204, { 'access-control-allow-methods': 'POST, GET, OPTIONS', 'access-control-allow-headers': 'content-type, solana-client', 'access-control-max-age': '600' }).end();
    }
    if (req.method === 'GET' && req.url === '/health') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST, OPTIONS' }).end();
    const parsed = await readJsonRpcBody(req, MAX_BODY_BYTES);
    const reply =
      parsed === undefined
        ? { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null }
        : Array.isArray(parsed)
          ? await Promise.all(parsed.map((item) => this.answer(item as JsonRpcRequest)))
          : await this.answer(parsed as JsonRpcRequest);
    res.writeHead(200, { 'content-type': 'application/json' }).end(stringifyRpcJson(reply));
  }

  private serveSocket(socket: WebSocket): void {
    const send = (message: unknown) => {
      if (socket.readyState === socket.OPEN) socket.send(stringifyRpcJson(message));
    };
    socket.on('message', (data) => {
      let request: JsonRpcRequest;
      try {
        request = JSON.parse(String(data)) as JsonRpcRequest;
      } catch {
        return send({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
      }
      const id = request.id ?? null;
      try {
        const answered = this.subscriptions.handle(socket, String(request.method), Array.isArray(request.params) ? request.params : [], send);
        if (answered !== undefined) return send({ jsonrpc: '2.0', result: answered.result, id });
        void this.answer(request).then(send);
      } catch (error) {
        const code = error instanceof SvmRpcError ? error.code : -32603;
        send({ jsonrpc: '2.0', error: { code, message: error instanceof Error ? error.message : String(error) }, id });
      }
    });
    socket.on('close', () => this.subscriptions.dropSocket(socket));
  }
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function listenWebSocket(host: string, port: number): Promise<WebSocketServer> {
  return new Promise((resolve, reject) => {
    const wss = new WebSocketServer({ host, port });
    wss.once('error', reject);
    wss.once('listening', () => {
      wss.off('error', reject);
      resolve(wss);
    });
  });
}
