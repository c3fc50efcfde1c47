import { getAddress } from 'viem';
import { z } from 'zod';
import { fetchUpstream, UpstreamReadFailure } from '../fetchUpstream';
import { shownUpstream } from '../../config/shownUpstream';
import { FIRST_SUB_ACCOUNT_INDEX } from './lvmAssets';
import { LvmApiError } from './lvmApiQuery';
import type { LvmUpstreamAccount } from './LvmLedger';

/** How long one upstream request may take, by default (connect, headers, body). */
export const LVM_UPSTREAM_TIMEOUT_MS = 5_000;

const integerString = z.string().regex(/^-?\d+$/, 'an integer string');

/** `GET /api/v1/account`'s answer, as `LvmApiServer` gives it (amounts as integer strings in the smallest unit). */
const AccountsAnswerSchema = z.object({
  accounts: z.array(
    z.object({
      index: z.number().int().nonnegative().max(FIRST_SUB_ACCOUNT_INDEX),
      l1_address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
      account_type: z.union([z.literal(0), z.literal(1)]),
      master_account_index: z.number().int().nonnegative(),
      collateral: integerString,
      nonce: z.number().int().nonnegative(),
      assets: z.array(z.object({ asset_index: z.number().int().nonnegative(), spot_balance: integerString })).default([]),
    }),
  ),
});

/** Whether an error is a fork's upstream that could not be read (the API's 502 `UPSTREAM_UNAVAILABLE`). */
export function isLvmUpstreamFailure(error: unknown): boolean {
  return error instanceof LvmApiError && error.errorCode === 'UPSTREAM_UNAVAILABLE';
}

/**
 * A fork's reads from its upstream exchange: the accounts of an index or of an owner (L1 address),
 * through the same routes `LvmApiServer` serves (the upstream is another simulator's exchange API).
 * Read only: nothing is ever sent to it. Each request is bounded (`timeoutMs`); an upstream that
 * cannot be read answers `LvmApiError` 502 `UPSTREAM_UNAVAILABLE`, naming it and the request.
 */
export class LvmUpstreamApi {
  readonly url: string;

  constructor(
    url: string,
    private readonly timeoutMs: number = LVM_UPSTREAM_TIMEOUT_MS,
  ) {
    this.url = url.replace(/\/+$/, '');
  }

  /** The account with this index upstream ([] when it has none). */
  accountsByIndex(index: number): Promise<LvmUpstreamAccount[]> {
    return this.accounts(`/api/v1/account?by=index&value=${index}`);
  }

  /** The accounts an L1 address owns upstream ([] when none). */
  accountsByL1Address(l1Address: string): Promise<LvmUpstreamAccount[]> {
    return this.accounts(`/api/v1/account?by=l1_address&value=${encodeURIComponent(l1Address)}`);
  }

  /** Asks the upstream its current height, to know it answers as the exchange API does (a fork's first start). */
  async probe(): Promise<number> {
    const path = '/api/v1/currentHeight';
    const text = await this.get(path);
    const parsed = z.object({ height: z.number().int().nonnegative() }).safeParse(parseJson(text));
    if (text === undefined || !parsed.success) throw this.error(path, `the answer is not the exchange API's { height }: ${String(text).slice(0, 200)}`);
    return parsed.data.height;
  }

  /** GET `path`: its body text, undefined on 404. */
  private async get(path: string): Promise<string | undefined> {
    const response = await fetchUpstream(`${this.url}${path}`, this.timeoutMs).catch((error: unknown) => {
      throw error instanceof UpstreamReadFailure ? this.error(path, error.reason) : error;
    });
    if (response.status === 404) return undefined;
    if (!response.ok) throw this.error(path, `HTTP ${response.status}: ${response.text.slice(0, 200)}`);
    return response.text;
  }

  private async accounts(path: string): Promise<LvmUpstreamAccount[]> {
    const text = await this.get(path);
    if (text === undefined) return [];
    const parsed = AccountsAnswerSchema.safeParse(parseJson(text));
    if (!parsed.success) throw this.error(path, `the answer is not the exchange API's { accounts }: ${text.slice(0, 200)}`);
    return parsed.data.accounts.map((account) => ({
      index: account.index,
      l1Address: getAddress(account.l1_address),
      kind: account.account_type === 0 ? 'master' : 'sub',
      masterIndex: account.master_account_index,
      collateral: BigInt(account.collateral),
      spot: account.assets.flatMap((asset): Array<[number, bigint]> => (BigInt(asset.spot_balance) === 0n ? [] : [[asset.asset_index, BigInt(asset.spot_balance)]])),
      nonce: account.nonce,
    }));
  }

  private error(path: string, cause: string): LvmApiError {
    return new LvmApiError(502, 'UPSTREAM_UNAVAILABLE', `the fork's upstream exchange API ${shownUpstream(this.url)} could not be read (GET ${path}): ${cause}`);
  }
}

function parseJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
