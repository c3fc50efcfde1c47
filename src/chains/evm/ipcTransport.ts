import { connect, type Socket } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { createTransport, RpcRequestError, SocketClosedError, TimeoutError, type EIP1193RequestFn, type Transport } from 'viem';

interface Pending {
  body: { method: string; params?: unknown };
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

export interface IpcTransport {
  transport: Transport;
  /** Sends `eth_chainId` until the socket answers or `timeoutMs` (real time) pass; resolves with the chain id. */
  probe(timeoutMs: number): Promise<number>;
  /** Closes the socket; pending calls fail with SocketClosedError. A later call connects again. */
  close(): void;
}

/**
 * JSON-RPC to an Anvil node over its IPC socket (`anvil --ipc <path>`), as a viem transport: a
 * call is one write of one line on a kept-open Unix socket, and each answer is one line (Anvil
 * answers in whatever order it finishes, matched here by id). A call costs a fraction of the CPU
 * of one over HTTP (no HTTP request or response to build and parse; ~50 vs ~150 µs at 8 in
 * flight), for the simulator and for Anvil. viem keeps retries and error decoding: a JSON-RPC
 * error is an `RpcRequestError` as over HTTP, a lost socket a `SocketClosedError`, a call with no
 * answer in time a `TimeoutError`. Request/response only (no subscriptions): its type is
 * `custom`, so viem polls where it would otherwise subscribe. The socket holds the process open
 * only while calls are pending.
 */
export function ipcTransport(path: string): IpcTransport {
  /** One socket and the calls sent on it: a socket that closes fails its own calls only. */
  interface Connection {
    socket: Socket;
    ready: Promise<void>;
    pending: Map<number, Pending>;
  }
  let current: Connection | undefined;
  let nextId = 1;

  const failAll = (connection: Connection, error: unknown) => {
    for (const [id, call] of connection.pending) {
      clearTimeout(call.timer);
      connection.pending.delete(id);
      call.reject(error);
    }
  };

  const connection = (): Connection => {
    if (current) return current;
    const socket = connect(path);
    const decoder = new StringDecoder('utf8');
    let buffered = '';
    let connected = false;
    const created: Connection = {
      socket,
      pending: new Map(),
      ready: new Promise<void>((resolve, reject) => {
        socket.once('connect', () => {
          connected = true;
          if (created.pending.size === 0) socket.unref();
          resolve();
        });
        socket.once('close', () => {
          if (current === created) current = undefined;
          if (!connected) reject(new SocketClosedError({ url: path }));
          failAll(created, new SocketClosedError({ url: path }));
        });
      }),
    };
    created.ready.catch(() => undefined); // a caller awaits it; never an unhandled rejection
    socket.on('data', (chunk: Buffer) => {
      buffered += decoder.write(chunk);
      let end = buffered.indexOf('\n');
      while (end >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (line.trim() !== '') answerLine(created, line);
        end = buffered.indexOf('\n');
      }
    });
    socket.on('error', () => undefined); // 'close' follows and says it
    current = created;
    return created;
  };

  function answerLine(connection: Connection, line: string): void {
    let message: { id?: unknown; result?: unknown; error?: { code: number; message: string } };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      return; // not an answer (Anvil writes one JSON value per line)
    }
    if (typeof message.id !== 'number') return;
    const call = connection.pending.get(message.id);
    if (!call) return; // timed out meanwhile
    connection.pending.delete(message.id);
    clearTimeout(call.timer);
    if (connection.pending.size === 0) connection.socket.unref();
    if (message.error) call.reject(new RpcRequestError({ body: call.body, error: message.error, url: path }));
    else call.resolve(message.result);
  }

  const send = async (body: { method: string; params?: unknown }, timeoutMs: number): Promise<unknown> => {
    const on = connection();
    await on.ready;
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        // real time: a node that does not answer (viem's transport timeout)
        on.pending.delete(id);
        if (on.pending.size === 0) on.socket.unref();
        reject(new TimeoutError({ body, url: path }));
      }, timeoutMs);
      if (on.pending.size === 0) on.socket.ref();
      on.pending.set(id, { body, resolve, reject, timer });
      on.socket.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: body.method, params: body.params ?? [] })}\n`);
    });
  };

  const transport: Transport = ({ retryCount, timeout }) =>
    createTransport({
      key: 'ipc',
      name: 'IPC JSON-RPC',
      type: 'custom',
      retryCount,
      timeout: timeout ?? 10_000,
      // viem types each method's result; the node answers it as JSON-RPC does over HTTP
      request: (({ method, params }: { method: string; params?: unknown }) => send({ method, params }, timeout ?? 10_000)) as EIP1193RequestFn,
    });

  return {
    transport,
    probe: async (timeoutMs) => {
      // the node may print its HTTP address a moment before its IPC socket listens: try again until the deadline
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        try {
          return Number(await send({ method: 'eth_chainId', params: [] }, Math.max(1, deadline - performance.now())));
        } catch (error) {
          if (!(error instanceof SocketClosedError) || performance.now() >= deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
    },
    close: () => {
      const closing = current;
      current = undefined;
      if (!closing) return;
      closing.socket.destroy();
      failAll(closing, new SocketClosedError({ url: path }));
    },
  };
}
