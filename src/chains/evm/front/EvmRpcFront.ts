import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectableHost } from '../../../config/listenHost';
import { WebSocketServer } from 'ws';
import { WorkInFlight } from '../../../process/WorkInFlight';
import { changingCallsOf } from './changingCallsOf';
import type { JsonRpcCall } from './evmCallKinds';
import { admitEveryUserCall, type EvmUserCallGate } from './EvmUserCallGate';
import { relayWebSocket } from './relayWebSocket';

export interface EvmRpcFrontOptions {
  /** The node behind the front (Anvil's own HTTP and websocket URLs). */
  upstream: { rpcUrl: string; wsUrl: string };
  /** Where users reach it (default 127.0.0.1; 0.0.0.0 or ::: every interface). */
  host?: string;
  /** `--chain-port` (default: a free one). */
  port?: number;
  /** Where a fault step can hold, reorder or drop users' calls (default: every call goes on). */
  gate?: EvmUserCallGate;
  /** Journals the state-changing calls, made at the node's head block `head`, before they are forwarded; without it nothing is journaled (and no head is read). */
  journal?: (calls: readonly JsonRpcCall[], head: number) => void;
  /** A state-changing call was answered. */
  onStateChange?: () => void;
}

/** A started front: the URLs users get, in front of the node's. */
export interface EvmRpcFront {
  rpcUrl: string;
  wsUrl: string;
  port: number;
  /**
   * Holds users' state-changing calls (a world revert): resolves once those already forwarded over
   * HTTP are answered, with the function that lets the held ones on. Reads pass meanwhile.
   */
  hold(): Promise<() => void>;
  close(): Promise<void>;
}

const BAD_GATEWAY = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'the chain node behind the simulator did not answer' } });

/**
 * The simulator's own RPC URL for an EVM chain, in front of its Anvil: what changes the chain
 * (transactions, `anvil_*` / `evm_*` / `hardhat_*` cheats, over HTTP or the websocket) passes the
 * gate and is journaled before it is forwarded; everything else (reads, filters, `eth_sign*`,
 * `eth_subscribe`) is forwarded as is. Bodies and answers go through unchanged.
 */
export async function startEvmRpcFront(options: EvmRpcFrontOptions): Promise<EvmRpcFront> {
  const target = new URL(options.upstream.rpcUrl);
  const agent = new http.Agent({ keepAlive: true });
  const gate = options.gate ?? admitEveryUserCall;

  const send = (method: string, headers: http.OutgoingHttpHeaders, body: Buffer, retried = false): Promise<http.IncomingMessage> =>
    new Promise((resolve, reject) => {
      const request = http.request({ host: target.hostname, port: target.port, path: target.pathname, method, headers, agent }, resolve);
      request.once('error', (error: NodeJS.ErrnoException) => {
        // a kept-alive socket the node closed meanwhile: the call never reached it, send it once more
        if (!retried && request.reusedSocket && error.code === 'ECONNRESET') send(method, headers, body, true).then(resolve, reject);
        else reject(error);
      });
      request.end(body);
    });

  const headOf = async (): Promise<number> => {
    const answer = await send('POST', { 'content-type': 'application/json' }, Buffer.from('{"jsonrpc":"2.0","id":0,"method":"eth_blockNumber","params":[]}'));
    const chunks: Buffer[] = [];
    for await (const chunk of answer) chunks.push(chunk as Buffer);
    return Number((JSON.parse(Buffer.concat(chunks).toString()) as { result: string }).result);
  };

  // the head block the last state-changing call was made at: a signed transaction is journaled with
  // it (no extra round trip; at replay it is found in the journaled blocks by its hash, or sent
  // again in order after the calls before it), any other call reads the head first
  let lastHead = 0;
  const beforeForward = async (calls: JsonRpcCall[]): Promise<void> => {
    await gate.admit(calls);
    if (!options.journal) return;
    if (!calls.every((call) => call.method.startsWith('eth_sendRawTransaction'))) lastHead = await headOf();
    options.journal(calls, lastHead);
  };

  // a world revert's hold: changing calls wait for it, and it waits for those already forwarded over HTTP
  const forwarding = new WorkInFlight();
  /** Passes the hold, then the gate and the journal; `answered` once the node's answer is through. */
  const admit = async (calls: JsonRpcCall[]): Promise<() => void> => {
    // checked again as it resumes: a hold taken meanwhile holds this call too
    while (forwarding.holding) await forwarding.afterHold();
    const answered = forwarding.started();
    try {
      await beforeForward(calls);
    } catch (error) {
      answered();
      throw error;
    }
    return answered;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const calls = req.method === 'POST' ? changingCallsOf(body.toString()) : [];
      // a JSON-RPC call needs its body's type and length (Anvil answers CORS for any origin); anything else (a preflight) goes with its own headers
      const headers = req.method === 'POST' ? { 'content-type': 'application/json', 'content-length': String(body.length) } : { ...req.headers, host: target.host };
      const admitted = calls.length > 0 ? admit(calls) : Promise.resolve(() => undefined);
      const forwarded = admitted.then(() => send(req.method ?? 'POST', headers, body));
      forwarded.then(
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          if (calls.length > 0) {
            answer.once('end', () => options.onStateChange?.());
            void admitted.then((answered) => answer.once('close', answered));
          }
        },
        () => {
          if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
          res.end(BAD_GATEWAY);
          void admitted.then((answered) => answered(), () => undefined);
        },
      );
    });
  });
  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => sockets.handleUpgrade(req, socket, head, (client) => relayWebSocket(client, options.upstream.wsUrl, (calls) => forwarding.afterHold().then(() => beforeForward(calls)))));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = connectableHost(options.host ?? '127.0.0.1');
  return {
    rpcUrl: `http://${host}:${port}`,
    wsUrl: `ws://${host}:${port}`,
    port,
    hold: () => forwarding.hold(),
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
