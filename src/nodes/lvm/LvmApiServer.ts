import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { LvmLedger } from './LvmLedger';
import { LVM_REFUSAL_STATUS, LvmTransferRefusedError } from './lvmTransferRefusal';
import { accountView, transactionView } from './lvmApiViews';
import { accountIndexOf, LvmApiError, requiredQuery } from './lvmApiQuery';
import { answerReadRoute } from './lvmReadRoutes';
import { readRequestBody, RequestBodyTooLargeError } from '../readRequestBody';
import { readThroughForLvmRequest, type LvmReadThrough } from './LvmReadThrough';

const MAX_BODY_BYTES = 64 * 1024;

/** A JSON integer a client may send: no fraction, no string, within 2^53 − 1. */
const jsonInteger = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** SPEC §4.6: the withdrawal step's `data.action`, sent as it is, with the account that signs it. */
const TransferBodySchema = z.object({
  accountIndex: jsonInteger,
  nonce: jsonInteger.optional(),
  action: z.object({
    type: z.literal('transfer'),
    parameters: z.object({
      toAccountIndex: jsonInteger,
      assetIndex: jsonInteger,
      fromRouteType: jsonInteger,
      toRouteType: jsonInteger,
      amount: jsonInteger,
      usdcFee: jsonInteger,
      memo: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'memo must be 32 bytes as 0x-prefixed hex').optional(),
    }),
  }),
});

/**
 * The exchange's own HTTP API, on a port of its own (what a client, or the exchange's wallet
 * adapter, talks to; the simulator's solver and watcher use the ledger directly):
 * - `GET /api/v1/accountsByL1Address?l1_address=` — the accounts an EVM address owns;
 * - `GET /api/v1/account?by=index|l1_address&value=` — `{ accounts: [...] }`;
 * - `POST /api/v1/transfer` — header `x-api-key` (scoped to the sending account), body
 *   `{ accountIndex, action: { type: 'transfer', parameters } }` (SPEC §4.6), answers `{ tx_hash }`;
 * - `POST /api/v1/createSubAccount` — header `x-api-key` of a master account: a new sub-account and its key;
 * - the read API (`currentHeight`, `nextNonce`, `block`, `blocks`, `tx`, `txs`, `accountTxs`,
 *   `transferFeeInfo`): `lvmReadRoutes.ts`.
 * Errors are JSON `{ code, errorCode, message }` with a 4xx status. A fork (`readThrough`) reads
 * the accounts a request names from its upstream first; an upstream that cannot be read answers
 * 502 `UPSTREAM_UNAVAILABLE`.
 */
export class LvmApiServer {
  private http: Server | undefined;

  constructor(
    private readonly ledger: LvmLedger,
    private readonly options: { host: string; port?: number; apiKeyFor: (index: number) => string; readThrough?: LvmReadThrough },
  ) {}

  async start(): Promise<string> {
    const http = createServer((req, res) => void this.serve(req, res));
    const port = await new Promise<number>((resolve, reject) => {
      http.once('error', reject);
      http.listen(this.options.port ?? 0, this.options.host, () => {
        http.off('error', reject);
        resolve((http.address() as AddressInfo).port);
      });
    });
    this.http = http;
    return `http://${this.options.host}:${port}`;
  }

  async stop(): Promise<void> {
    const http = this.http;
    if (!http) return;
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://exchange.invalid');
      const body = await this.route(req, url);
      send(res, 200, { code: 200, ...body });
    } catch (error) {
      if (error instanceof LvmApiError) return send(res, error.status, { code: error.status, errorCode: error.errorCode, message: error.message });
      if (error instanceof LvmTransferRefusedError) {
        const status = LVM_REFUSAL_STATUS[error.reason] ?? 400;
        return send(res, status, { code: status, errorCode: error.reason, message: error.message });
      }
      send(res, 500, { code: 500, errorCode: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error) });
    }
  }

  private async route(req: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
    const path = url.pathname.replace(/\/+$/, '');
    const route = `${req.method} ${path}`;
    if (this.options.readThrough) await readThroughForLvmRequest(this.options.readThrough, route, url);
    switch (route) {
      case 'GET /health':
        return { status: 'ok' };
      case 'GET /api/v1/accountsByL1Address': {
        const l1Address = requiredQuery(url, 'l1_address');
        const accounts = this.ledger.accountsOf(l1Address);
        if (accounts.length === 0) throw new LvmApiError(404, 'ACCOUNT_NOT_FOUND', `no account is owned by ${l1Address}`);
        return { l1_address: accounts[0]!.l1Address, sub_accounts: accounts.map(accountView) };
      }
      case 'GET /api/v1/account': {
        const by = requiredQuery(url, 'by');
        const value = requiredQuery(url, 'value');
        const accounts = by === 'index' ? [this.ledger.account(accountIndexOf(value, 'value'))].filter((a) => a !== undefined) : by === 'l1_address' ? this.ledger.accountsOf(value) : undefined;
        if (!accounts) throw new LvmApiError(400, 'INVALID_PARAMETER', `by must be index or l1_address, not ${by}`);
        if (accounts.length === 0) throw new LvmApiError(404, 'ACCOUNT_NOT_FOUND', `no account with ${by} ${value}`);
        return { total: accounts.length, accounts: accounts.map(accountView) };
      }
      case 'POST /api/v1/transfer':
        return this.transfer(req);
      case 'POST /api/v1/createSubAccount':
        return this.createSubAccount(req);
      default: {
        const answer = answerReadRoute(this.ledger, route, url);
        if (!answer) throw new LvmApiError(404, 'NOT_FOUND', `no route ${route}`);
        return answer;
      }
    }
  }

  /** A new sub-account of the master account whose key is sent; answers it with its own API key. */
  private async createSubAccount(req: IncomingMessage): Promise<Record<string, unknown>> {
    const apiKey = apiKeyOf(req, 'creating a sub-account');
    const master = this.ledger.authorize(apiKey);
    const account = this.ledger.createSubAccount(master);
    const key = this.options.apiKeyFor(account.index);
    this.ledger.issueApiKey(account.index, key);
    return { account: accountView(account), api_key: key };
  }

  private async transfer(req: IncomingMessage): Promise<Record<string, unknown>> {
    const apiKey = apiKeyOf(req, 'a transfer');
    const parsed = TransferBodySchema.safeParse(await readJson(req));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new LvmApiError(400, 'INVALID_TRANSFER', `${issue.path.join('.') || 'body'}: ${issue.message}`);
    }
    const { accountIndex, nonce, action } = parsed.data;
    const p = action.parameters;
    await this.options.readThrough?.accountIndexes([accountIndex, p.toAccountIndex]);
    const tx = this.ledger.submitTransfer(apiKey, {
      fromAccountIndex: accountIndex,
      toAccountIndex: p.toAccountIndex,
      assetIndex: p.assetIndex,
      fromRouteType: p.fromRouteType,
      toRouteType: p.toRouteType,
      amount: BigInt(p.amount),
      usdcFee: BigInt(p.usdcFee),
      ...(p.memo === undefined ? {} : { memo: p.memo as `0x${string}` }),
      ...(nonce === undefined ? {} : { nonce }),
    });
    return { tx_hash: tx.hash, block_height: tx.blockHeight, tx: transactionView(tx, this.ledger.account(tx.fromAccountIndex)!.l1Address) };
  }
}

function apiKeyOf(req: IncomingMessage, what: string): string {
  const apiKey = req.headers['x-api-key'];
  if (typeof apiKey !== 'string' || apiKey === '') throw new LvmApiError(401, 'MISSING_API_KEY', `${what} needs the x-api-key header: the API key of the account`);
  return apiKey;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let text: string;
  try {
    text = await readRequestBody(req, MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof RequestBodyTooLargeError) throw new LvmApiError(413, 'BODY_TOO_LARGE', error.message);
    throw error;
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new LvmApiError(400, 'INVALID_JSON', 'the body is not JSON');
  }
}
