import { createServer, Agent, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, http, HttpRequestError, RpcError, TimeoutError } from 'viem';
import { nodeHttpFetch } from '../../../src/chains/evm/nodeHttpFetch';

/** A JSON-RPC server whose answer per method the test picks. */
function rpcServer(handle: (method: string, req: IncomingMessage, res: ServerResponse, body: { id: number }) => void): Promise<{ server: Server; url: string; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = JSON.parse(raw) as { id: number; method: string };
      handle(body.method, req, res, body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sockets })));
}

describe('nodeHttpFetch: viem over node:http', () => {
  let rpc: Awaited<ReturnType<typeof rpcServer>>;
  const agent = new Agent({ keepAlive: true });
  const client = (timeout = 10_000) => createPublicClient({ transport: http(rpc.url, { fetchFn: nodeHttpFetch(agent), retryCount: 0, timeout }) });

  beforeAll(async () => {
    rpc = await rpcServer((method, _req, res, body) => {
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (method === 'eth_chainId') json(200, { jsonrpc: '2.0', id: body.id, result: '0x2105' });
      else if (method === 'eth_blockNumber') json(200, { jsonrpc: '2.0', id: body.id, error: { code: -32000, message: 'no blocks today' } });
      else if (method === 'eth_gasPrice') {
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('busy');
      } else if (method === 'eth_getBalance') {
        // never answers: the caller's timeout must end it
      } else json(200, { jsonrpc: '2.0', id: body.id, result: '0x0' });
    });
  });

  afterAll(async () => {
    agent.destroy();
    for (const socket of rpc.sockets) socket.destroy();
    await new Promise((resolve) => rpc.server.close(resolve));
  });

  it('returns results, and keeps the socket for the next call', async () => {
    expect(await client().getChainId()).toBe(8453);
    expect(await client().getChainId()).toBe(8453);
    expect(rpc.sockets.size).toBe(1);
  });

  it('gives viem its own error classes: JSON-RPC errors, non-2xx answers, timeouts', async () => {
    const rpcError = await client().getBlockNumber({ cacheTime: 0 }).catch((error: unknown) => error);
    expect(rpcError).toBeInstanceOf(RpcError);
    expect((rpcError as RpcError).details).toBe('no blocks today');
    const http503 = await client().getGasPrice().catch((error: unknown) => error);
    expect(http503).toBeInstanceOf(HttpRequestError);
    expect((http503 as HttpRequestError).status).toBe(503);
    await expect(client(100).getBalance({ address: '0x0000000000000000000000000000000000000001' })).rejects.toBeInstanceOf(TimeoutError);
  });

  it('sends a call again when the node closed the kept-alive socket it went out on', async () => {
    expect(await client().getChainId()).toBe(8453);
    // the server drops its idle connections without telling the agent first
    for (const socket of rpc.sockets) socket.destroy();
    expect(await client().getChainId()).toBe(8453);
  });

  it('fails as an HTTP error when nothing listens', async () => {
    const closed = await rpcServer(() => undefined);
    const url = closed.url;
    await new Promise((resolve) => closed.server.close(resolve));
    const error = await createPublicClient({ transport: http(url, { fetchFn: nodeHttpFetch(new Agent()), retryCount: 0 }) })
      .getChainId()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpRequestError);
  });
});
