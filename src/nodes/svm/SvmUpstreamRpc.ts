import { address, lamports, type Address, type EncodedAccount } from '@solana/kit';
import { postSvmRpc } from './callSvmRpc';
import { SvmRpcError } from './svmRpcEncoding';
import { shownUpstream } from '../../config/shownUpstream';

/** How long one call to a fork's upstream may take before the read it serves fails (an upstream that does not answer is never waited on longer). */
export const SVM_UPSTREAM_TIMEOUT_MS = 10_000;
/** `getMultipleAccounts` takes at most 100 addresses a call. */
const ACCOUNTS_PER_CALL = 100;
/** The JSON-RPC error code a read answers with when the upstream failed it. */
export const SVM_UPSTREAM_ERROR_CODE = -32603;

/** An account as a Solana RPC answers it with `encoding: "base64"` (u64s made strings before parsing, see `exactU64s`). */
interface UpstreamAccountJson {
  lamports: number | string;
  owner: string;
  data: [string, string];
  executable: boolean;
  space?: number | string;
}

/** A read the fork's upstream failed or did not answer in time: the node answers it as a JSON-RPC error naming the upstream. */
export class SvmUpstreamError extends SvmRpcError {
  constructor(
    url: string,
    readonly method: string,
    /** What went wrong, without the upstream's name (a refused connection, a timeout, its own error). */
    readonly reason: string,
  ) {
    super(SVM_UPSTREAM_ERROR_CODE, `the fork's upstream ${shownUpstream(url)} failed ${method}: ${reason}`);
  }
}


/**
 * A fork's upstream Solana JSON-RPC, read only: accounts by address (`getMultipleAccounts`,
 * base64, 100 a call) and an owner's token accounts (`getTokenAccountsByOwner`). Each call is
 * bounded by `timeoutMs`; a refused connection, an HTTP or JSON-RPC error or a timeout is an
 * `SvmUpstreamError`. Lamports and sizes stay exact above 2^53.
 */
export class SvmUpstreamRpc {
  constructor(
    readonly url: string,
    private readonly timeoutMs = SVM_UPSTREAM_TIMEOUT_MS,
  ) {}

  /** Each address's account upstream (undefined: the upstream has none there). */
  async accounts(addresses: readonly Address[]): Promise<Map<Address, EncodedAccount | undefined>> {
    const found = new Map<Address, EncodedAccount | undefined>();
    for (let at = 0; at < addresses.length; at += ACCOUNTS_PER_CALL) {
      const batch = addresses.slice(at, at + ACCOUNTS_PER_CALL);
      const answer = await this.call<{ value: Array<UpstreamAccountJson | null> }>('getMultipleAccounts', [batch, { encoding: 'base64', commitment: 'confirmed' }]);
      if (!Array.isArray(answer?.value) || answer.value.length !== batch.length) throw new SvmUpstreamError(this.url, 'getMultipleAccounts', `expected ${batch.length} accounts in its answer`);
      batch.forEach((key, index) => found.set(key, accountOf(key, answer.value[index] ?? null)));
    }
    return found;
  }

  /** The upstream's slot (the start-up probe: it answers, and is a Solana RPC). */
  async slot(): Promise<bigint> {
    const slot = await this.call<unknown>('getSlot', [{ commitment: 'confirmed' }]);
    if (typeof slot !== 'number' || !Number.isSafeInteger(slot)) throw new SvmUpstreamError(this.url, 'getSlot', 'its answer is not a slot');
    return BigInt(slot);
  }

  /** The token accounts `owner` holds upstream, of `filter`'s mint or token program. */
  async tokenAccountsOf(owner: Address, filter: { mint: Address } | { programId: Address }): Promise<EncodedAccount[]> {
    const answer = await this.call<{ value: Array<{ pubkey: string; account: UpstreamAccountJson }> }>('getTokenAccountsByOwner', [owner, filter, { encoding: 'base64', commitment: 'confirmed' }]);
    if (!Array.isArray(answer?.value)) throw new SvmUpstreamError(this.url, 'getTokenAccountsByOwner', 'expected a list of accounts in its answer');
    return answer.value.map((entry) => accountOf(address(entry.pubkey), entry.account)!);
  }

  private async call<T>(method: string, params: unknown[]): Promise<T> {
    let text: string;
    try {
      text = await postSvmRpc(this.url, method, params, this.timeoutMs);
    } catch (error) {
      throw new SvmUpstreamError(this.url, method, describeFetchError(error, this.timeoutMs));
    }
    let body: { result?: T; error?: { code: number; message: string } };
    try {
      body = JSON.parse(exactU64s(text)) as typeof body;
    } catch {
      throw new SvmUpstreamError(this.url, method, 'its answer is not JSON');
    }
    if (body.error) throw new SvmUpstreamError(this.url, method, `${body.error.message} (code ${body.error.code})`);
    return body.result as T;
  }
}

/** A refused connection says so (fetch hides it in `cause`); a timeout says how long it waited. */
function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${timeoutMs} ms`;
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error instanceof Error ? error.message : String(error)}${cause}`;
}

/** Quotes `lamports` and `space` numbers before JSON.parse, so an account above 2^53 lamports stays exact. */
function exactU64s(text: string): string {
  return text.replace(/"(lamports|space|rentEpoch)":(\d+)/g, '"$1":"$2"');
}

function accountOf(key: Address, json: UpstreamAccountJson | null): EncodedAccount | undefined {
  if (json === null) return undefined;
  const data = new Uint8Array(Buffer.from(json.data[0], 'base64'));
  return { address: key, lamports: lamports(BigInt(json.lamports)), programAddress: address(json.owner), executable: json.executable, data, space: BigInt(data.length) };
}
