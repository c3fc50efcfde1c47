import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenHttp, type ListeningHttp } from '../listenHttp';
import { outputScriptOf, toHex } from './bvmCrypto';
import { BvmRpcError } from './bvmRpcError';
import { feeAt, type BvmLedger } from './BvmLedger';
import { BVM_FEE_RATE_SAT_PER_KVB } from './bvmTransactions';
import { esploraAddressStats, esploraBlock, esploraStatus, esploraTransaction } from './bvmEsploraViews';
import { readRequestBody } from '../readRequestBody';
import type { BvmReadThrough } from './BvmReadThrough';
import { readThroughForEsplora } from './bvmReadThroughRequests';
import { BvmUpstreamError } from './BvmUpstreamEsplora';

const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The confirmation targets `/fee-estimates` answers for, as Esplora does. */
const FEE_TARGETS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 144, 504, 1008];
/** Esplora pages an address's confirmed transactions 25 at a time, after up to 50 unconfirmed ones. */
const CONFIRMED_PAGE = 25;
const MEMPOOL_PAGE = 50;

type Reply = { status: number; body: unknown };

const notFound = (text: string): Reply => ({ status: 404, body: text });

/**
 * The Esplora REST API (Blockstream's electrs, what BDK, LDK and most wallets read on regtest)
 * over the node's ledger, on a port of its own: tip, blocks, transactions (JSON, status, hex),
 * `POST /tx`, an address's balance stats, coins and transactions, fee estimates and the mempool,
 * with Esplora's JSON shapes (values in satoshis) and its plain-text answers and errors. A fork
 * (`readThrough`) reads what a request names from its upstream first; an upstream that cannot be
 * read answers 502 with the reason.
 */
export class BvmEsploraServer {
  private http: ListeningHttp | undefined;

  constructor(
    private readonly ledger: BvmLedger,
    private readonly options: { host: string; port?: number; readThrough?: BvmReadThrough },
  ) {}

  async start(): Promise<{ esploraUrl: string }> {
    this.http = await listenHttp((req, res) => void this.serve(req, res), this.options);
    return { esploraUrl: this.http.url };
  }

  async stop(): Promise<void> {
    await this.http?.close();
  }

  /** Answers one request: its status and body (a string is sent as text, anything else as JSON). */
  answer(method: string, path: string, body: string): Reply {
    const { ledger } = this;
    const parts = path.split('/').filter(Boolean);
    if (method === 'POST') {
      if (path !== '/tx') return notFound('Not Found');
      try {
        return { status: 200, body: ledger.submit(body.trim()).txid };
      } catch (error) {
        if (!(error instanceof BvmRpcError)) throw error;
        return { status: 400, body: `sendrawtransaction RPC error: ${JSON.stringify({ code: error.code, message: error.message })}` };
      }
    }
    if (method !== 'GET') return { status: 405, body: 'Method Not Allowed' };
    const [head, id, tail, ...rest] = parts;
    if (rest.length > 0) return notFound('Not Found');
    if (head === 'blocks' && id === 'tip' && tail === 'height') return { status: 200, body: String(ledger.height) };
    if (head === 'blocks' && id === 'tip' && tail === 'hash') return { status: 200, body: ledger.tip!.hash };
    if (head === 'block' && id && !tail) {
      const block = ledger.block(id.toLowerCase());
      return block ? { status: 200, body: esploraBlock(ledger, block) } : notFound('Block not found');
    }
    if (head === 'tx' && id) {
      const record = ledger.transaction(id.toLowerCase());
      if (!record) {
        // a fork's transaction read from its upstream: as the upstream showed it
        const upstream = ledger.upstreamTransaction(id.toLowerCase());
        if (!upstream) return notFound('Transaction not found');
        if (!tail) return { status: 200, body: upstream.esplora };
        if (tail === 'status') return { status: 200, body: upstream.esplora.status ?? { confirmed: true } };
        if (tail === 'hex') return { status: 200, body: upstream.hex };
        return notFound('Not Found');
      }
      if (!tail) return { status: 200, body: esploraTransaction(ledger, record) };
      if (tail === 'status') return { status: 200, body: esploraStatus(ledger, record.height) };
      if (tail === 'hex') return { status: 200, body: record.hex };
      return notFound('Not Found');
    }
    if (head === 'address' && id && (tail === undefined || tail === 'utxo' || tail === 'txs')) {
      const script = outputScriptOf(id);
      if (!script) return { status: 400, body: 'Invalid Bitcoin address' };
      if (tail === undefined) return { status: 200, body: esploraAddressStats(ledger, id, script) };
      if (tail === 'utxo') {
        return { status: 200, body: ledger.coinsOf(script, true).map((coin) => ({ txid: coin.txid, vout: coin.vout, status: esploraStatus(ledger, coin.height), value: Number(coin.value) })) };
      }
      const wanted = toHex(script);
      const touching = ledger.allTransactions().filter((record) => record.tx.outs.some((output) => toHex(output.script) === wanted) || record.prevouts.some((prevout) => toHex(prevout.script) === wanted));
      const unconfirmed = touching.filter((record) => record.height === undefined).reverse().slice(0, MEMPOOL_PAGE);
      const confirmed = touching.filter((record) => record.height !== undefined).reverse().slice(0, CONFIRMED_PAGE);
      return { status: 200, body: [...unconfirmed, ...confirmed].map((record) => esploraTransaction(ledger, record)) };
    }
    if (head === 'fee-estimates' && !id) {
      // one fee rate for every target: the rate the node's wallets pay, in sat/vB
      const satPerVb = Number(feeAt(BVM_FEE_RATE_SAT_PER_KVB, 1000)) / 1000;
      return { status: 200, body: Object.fromEntries(FEE_TARGETS.map((target) => [String(target), satPerVb])) };
    }
    if (head === 'mempool' && !id) {
      const records = ledger.mempoolTransactions();
      const byRate = new Map<number, number>();
      for (const record of records) {
        const rate = Number(record.fee) / record.vsize;
        byRate.set(rate, (byRate.get(rate) ?? 0) + record.vsize);
      }
      return {
        status: 200,
        body: {
          count: records.length,
          vsize: records.reduce((sum, record) => sum + record.vsize, 0),
          total_fee: Number(records.reduce((sum, record) => sum + record.fee, 0n)),
          fee_histogram: [...byRate.entries()].sort((a, b) => b[0] - a[0]),
        },
      };
    }
    return notFound('Not Found');
  }

  /** A fork reads what the request names from its upstream first (`BvmReadThrough`). */
  private async readUpstream(method: string, path: string, body: string): Promise<void> {
    if (this.options.readThrough) await readThroughForEsplora(this.options.readThrough, method, path, body);
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    try {
      if (req.method === 'POST') body = await readRequestBody(req, MAX_BODY_BYTES);
    } catch {
      return void res.writeHead(413, { 'content-type': 'text/plain' }).end('Payload Too Large');
    }
    const path = (req.url ?? '/').split('?')[0]!;
    const reply = await this.readUpstream(req.method ?? 'GET', path, body).then(
      () => this.answer(req.method ?? 'GET', path, body),
      (error: unknown) => {
        if (error instanceof BvmUpstreamError) return { status: 502, body: error.message };
        throw error;
      },
    );
    const json = typeof reply.body !== 'string';
    res.writeHead(reply.status, { 'content-type': json ? 'application/json' : 'text/plain', 'access-control-allow-origin': '*' }).end(json ? JSON.stringify(reply.body) : reply.body);
  }
}
