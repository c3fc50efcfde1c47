import { fetchUpstream, UpstreamReadFailure } from '../fetchUpstream';
import { shownUpstream } from '../../config/shownUpstream';
import { BVM_RPC_ERRORS, BvmRpcError } from './bvmRpcError';
import type { BvmUpstreamOutput, BvmUpstreamTransaction } from './BvmUpstreamReads';

/** How long one upstream request may take, by default (connect, headers, body). */
export const BVM_UPSTREAM_TIMEOUT_MS = 5_000;

/**
 * The upstream did not answer as an Esplora does (unreachable, too slow, an error status, a body
 * that is not Esplora's): the forked node answers this instead of what it would have read (a
 * JSON-RPC error -1; Esplora's 502). Nothing was kept, so the same ask reads again.
 */
export class BvmUpstreamError extends BvmRpcError {
  constructor(message: string) {
    super(BVM_RPC_ERRORS.misc, message);
  }
}

/**
 * The forked node's reads from its upstream's Esplora REST API (another simulator's Esplora, or a
 * regtest electrs): an address's unspent outputs, a transaction's hex and JSON. Read only: nothing
 * is ever sent to it. Each request is bounded (`timeoutMs`) and fails with a `BvmUpstreamError`
 * naming the upstream and the request.
 */
export class BvmUpstreamEsplora {
  readonly url: string;

  constructor(
    url: string,
    private readonly timeoutMs: number = BVM_UPSTREAM_TIMEOUT_MS,
  ) {
    this.url = url.replace(/\/+$/, '');
  }

  /** The outputs the upstream lists unspent and confirmed for an address (those in its mempool are left out). */
  async confirmedOutputsOf(address: string): Promise<BvmUpstreamOutput[]> {
    const path = `/address/${address}/utxo`;
    const body = await this.get(path, 'json');
    if (!Array.isArray(body)) throw this.error(path, 'the answer is not a list of outputs');
    return body.flatMap((entry: unknown) => {
      const output = entry as { txid?: unknown; vout?: unknown; value?: unknown; status?: { confirmed?: unknown } };
      if (typeof output.txid !== 'string' || !/^[0-9a-f]{64}$/.test(output.txid) || !Number.isInteger(output.vout) || !Number.isSafeInteger(output.value)) {
        throw this.error(path, `an output is not Esplora's { txid, vout, value, status }: ${JSON.stringify(entry)}`);
      }
      return output.status?.confirmed === true ? [{ txid: output.txid, vout: output.vout as number, value: BigInt(output.value as number) }] : [];
    });
  }

  /** Asks the upstream its tip height, to know it answers as an Esplora (a fork's first start). */
  async probe(): Promise<number> {
    const text = await this.get('/blocks/tip/height', 'text');
    if (text === undefined || !/^\d+$/.test(text.trim())) throw this.error('/blocks/tip/height', `the answer is not a block height: ${String(text).slice(0, 200)}`);
    return Number(text.trim());
  }

  /** A transaction by id (undefined: the upstream does not know it). */
  async transaction(txid: string): Promise<BvmUpstreamTransaction | undefined> {
    const hex = await this.get(`/tx/${txid}/hex`, 'text');
    if (hex === undefined) return undefined;
    if (!/^([0-9a-f]{2})+$/i.test(hex.trim())) throw this.error(`/tx/${txid}/hex`, 'the answer is not a raw transaction');
    const esplora = await this.get(`/tx/${txid}`, 'json');
    if (typeof esplora !== 'object' || esplora === null || Array.isArray(esplora)) throw this.error(`/tx/${txid}`, 'the answer is not a transaction');
    return { txid, hex: hex.trim().toLowerCase(), esplora: esplora as Record<string, unknown> };
  }

  /** GET `path`: its body (text or parsed JSON), undefined on 404. */
  private async get(path: string, as: 'text'): Promise<string | undefined>;
  private async get(path: string, as: 'json'): Promise<unknown>;
  private async get(path: string, as: 'text' | 'json'): Promise<unknown> {
    const response = await fetchUpstream(`${this.url}${path}`, this.timeoutMs).catch((error: unknown) => {
      throw error instanceof UpstreamReadFailure ? this.error(path, error.reason) : error;
    });
    const { text } = response;
    if (response.status === 404) return undefined;
    if (!response.ok) throw this.error(path, `HTTP ${response.status}: ${text.slice(0, 200)}`);
    if (as === 'text') return text;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw this.error(path, `the answer is not JSON: ${text.slice(0, 200)}`);
    }
  }

  private error(path: string, cause: string): BvmUpstreamError {
    return new BvmUpstreamError(`the fork's upstream Esplora ${shownUpstream(this.url)} could not be read (GET ${path}): ${cause}`);
  }
}
