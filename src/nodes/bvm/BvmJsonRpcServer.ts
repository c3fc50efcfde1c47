import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenHttp, type ListeningHttp } from '../listenHttp';
import type { BvmLedger } from './BvmLedger';
import { BVM_RPC_ERRORS, BvmRpcError } from './bvmRpcError';
import { bvmRpcMethods } from './bvmRpcMethods';
import { bvmWalletAdminMethods } from './bvmWalletAdminMethods';
import { bvmWalletReadMethods, type WalletMethod } from './bvmWalletReadMethods';
import { bvmWalletSendMethods } from './bvmWalletSendMethods';
import type { BvmWallets } from './BvmWallets';
import { stringifyBvmJson } from './bvmRpcEncoding';
import { readJsonRpcBody } from '../readRequestBody';
import type { BvmReadThrough } from './BvmReadThrough';
import { readThroughForRpc } from './bvmReadThroughRequests';

interface JsonRpcRequest {
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * The project's own Bitcoin Core-compatible JSON-RPC in front of the ledger: JSON-RPC 1.0 over
 * HTTP POST (`{ result, error, id }`), batches, amounts as exact BTC numbers. A single request
 * that fails answers HTTP 500 (404 for an unknown method) with `error: { code, message }`, as
 * bitcoind does; a batch answers 200. Credentials are accepted and not checked.
 */
export class BvmJsonRpcServer {
  private http: ListeningHttp | undefined;
  private readonly methods: ReturnType<typeof bvmRpcMethods>;
  private readonly adminMethods: ReturnType<typeof bvmWalletAdminMethods>;
  private readonly walletMethods: Record<string, WalletMethod>;

  constructor(
    ledger: BvmLedger,
    private readonly wallets: BvmWallets,
    private readonly options: { host: string; port?: number; readThrough?: BvmReadThrough },
  ) {
    this.methods = bvmRpcMethods(ledger);
    this.adminMethods = bvmWalletAdminMethods(wallets);
    this.walletMethods = { ...bvmWalletReadMethods(ledger, wallets), ...bvmWalletSendMethods(ledger, wallets) };
  }

  /**
   * The method a request names: a wallet method runs on the URL's wallet (or the only loaded
   * one); `listunspent` with no wallet loaded, on \`/\`, lists the addresses it is given (the node's
   * own lenience, older than its wallets).
   */
  private methodFor(name: string, urlWallet: string | undefined): ((params: unknown[]) => unknown) | undefined {
    if (Object.hasOwn(this.adminMethods, name)) return (params) => this.adminMethods[name]!(params, urlWallet);
    if (Object.hasOwn(this.walletMethods, name)) {
      if (name === 'listunspent' && urlWallet === undefined && this.wallets.loadedNames().length === 0) return this.methods[name];
      return (params) => this.walletMethods[name]!(this.wallets.resolve(urlWallet), params);
    }
    return Object.hasOwn(this.methods, name) ? this.methods[name] : undefined;
  }

  /** The scripts of the wallet a wallet method runs on (none for other methods, or when no wallet resolves: the method says why). */
  private walletScriptsFor(name: string, urlWallet: string | undefined): Uint8Array[] {
    if (!Object.hasOwn(this.walletMethods, name)) return [];
    if (name === 'listunspent' && urlWallet === undefined && this.wallets.loadedNames().length === 0) return [];
    try {
      return this.wallets.resolve(urlWallet).keys.map((key) => key.script);
    } catch {
      return [];
    }
  }

  async start(): Promise<{ rpcUrl: string }> {
    this.http = await listenHttp((req, res) => void this.serveHttp(req, res), this.options);
    return { rpcUrl: this.http.url };
  }

  async stop(): Promise<void> {
    await this.http?.close();
  }

  /** Answers one request object: its reply, and the HTTP status bitcoind would give it alone. */
  async answer(request: JsonRpcRequest, urlWallet?: string): Promise<{ reply: Record<string, unknown>; status: number }> {
    const id = request.id ?? null;
    try {
      if (typeof request !== 'object' || request === null || typeof request.method !== 'string') throw new BvmRpcError(BVM_RPC_ERRORS.invalidRequest, 'Method must be a string');
      const params = request.params === undefined || request.params === null ? [] : request.params;
      if (!Array.isArray(params)) throw new BvmRpcError(BVM_RPC_ERRORS.invalidRequest, 'Params must be an array (named parameters are not simulated)');
      const method = this.methodFor(request.method, urlWallet);
      if (!method) return { reply: { result: null, error: { code: BVM_RPC_ERRORS.methodNotFound, message: 'Method not found' }, id }, status: 404 };
      // a fork reads what the request names from its upstream first (an unreachable upstream: its error)
      const { readThrough } = this.options;
      if (readThrough) await readThroughForRpc(readThrough, request.method, params, this.walletScriptsFor(request.method, urlWallet));
      return { reply: { result: await method(params), error: null, id }, status: 200 };
    } catch (error) {
      if (error instanceof BvmRpcError) return { reply: { result: null, error: { code: error.code, message: error.message }, id }, status: 500 };
      return { reply: { result: null, error: { code: BVM_RPC_ERRORS.misc, message: error instanceof Error ? error.message : String(error) }, id }, status: 500 };
    }
  }

  private async serveHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET' && req.url === '/health') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end('JSONRPC server handles only POST requests');
    const path = (req.url ?? '/').split('?')[0]!;
    const walletPath = path.match(/^\/wallet\/(.*)$/);
    if (path !== '/' && !walletPath) return void res.writeHead(404).end();
    const urlWallet = walletPath ? decodeURIComponent(walletPath[1]!) : undefined;
    const parsed = await readJsonRpcBody(req, MAX_BODY_BYTES);
    const send = (status: number, reply: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(`${stringifyBvmJson(reply)}\n`);
    if (parsed === undefined) return void send(500, { result: null, error: { code: BVM_RPC_ERRORS.parse, message: 'Parse error' }, id: null });
    if (Array.isArray(parsed)) {
      const replies = await Promise.all(parsed.map(async (item) => (await this.answer(item as JsonRpcRequest, urlWallet)).reply));
      return void send(200, replies);
    }
    const { reply, status } = await this.answer(parsed as JsonRpcRequest, urlWallet);
    send(status, reply);
  }
}
