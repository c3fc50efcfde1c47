import { keccak256, toHex, zeroAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { skipCheck } from './check';
import type { ConformanceHttp } from './http';
import type { ConformanceTarget, TargetChain } from './target';

/**
 * Request bodies of `POST /quote/v2` and `POST /price` (SPEC §4.1), built from what the target's
 * `GET /chains` lists: its chain ids, the zero address of native currency (§4.1) and its ERC-20
 * currencies. Nothing here names the simulator's chains or contracts.
 */

/** The quoting user: a fixed, checksummed address no one holds funds for (read-only checks never pay). */
export const conformanceUser = privateKeyToAccount(keccak256(toHex('intentsim conformance: quoting user'))).address;
/** Another valid address, for an explicit `recipient`. */
export const conformanceRecipient = privateKeyToAccount(keccak256(toHex('intentsim conformance: recipient'))).address;

export type TradeType = 'EXACT_INPUT' | 'EXPECTED_OUTPUT' | 'EXACT_OUTPUT';

export interface QuoteBody {
  user: string;
  originChainId: number;
  destinationChainId: number;
  originCurrency: string;
  destinationCurrency: string;
  amount: string;
  tradeType: TradeType;
  [option: string]: unknown;
}

export interface TargetCurrency {
  symbol: string;
  address: string;
  decimals: number;
}

/** The chain's native currency as §4.1 names it: the zero address. */
export function nativeCurrencyOf(chain: TargetChain): TargetCurrency {
  return { symbol: chain.currency?.symbol ?? 'native', address: zeroAddress, decimals: chain.currency?.decimals ?? 18 };
}

/** `10^decimals / 100`: a hundredth of one whole unit, small enough for any solver, large enough to cover fees. */
export function hundredthOfUnit(decimals: number): bigint {
  return decimals >= 2 ? 10n ** BigInt(decimals - 2) : 1n;
}

/** Two EVM chains that take deposits (origin, destination), or the check is skipped. */
export async function twoEvmChains(target: ConformanceTarget): Promise<[TargetChain, TargetChain]> {
  const chains = await target.evmChains();
  if (chains.length < 2) skipCheck('GET /chains lists fewer than two EVM chains that take deposits: no cross-chain quote to ask for');
  return [chains[0]!, chains[1]!];
}

/** A cross-chain native bridge of a hundredth of a native unit, EXACT_INPUT, no recipient (it defaults to the user). */
export async function nativeBridgeBody(target: ConformanceTarget, options: Record<string, unknown> = {}): Promise<QuoteBody> {
  const [origin, destination] = await twoEvmChains(target);
  return {
    user: conformanceUser,
    originChainId: origin.id,
    destinationChainId: destination.id,
    originCurrency: zeroAddress,
    destinationCurrency: zeroAddress,
    amount: hundredthOfUnit(nativeCurrencyOf(origin).decimals).toString(),
    tradeType: 'EXACT_INPUT',
    ...options,
  };
}

/**
 * A cross-chain ERC-20 bridge of a token both chains list (same symbol): one whole unit of a
 * token with at most 8 decimals (a stablecoin-like token), else a hundredth of a unit.
 */
export async function erc20BridgeBody(target: ConformanceTarget): Promise<QuoteBody> {
  const [origin, destination] = await twoEvmChains(target);
  const pair = tokenOnBoth(origin, destination);
  if (pair) {
    const { token, twin } = pair;
    const amount = token.decimals <= 8 ? 10n ** BigInt(token.decimals) : hundredthOfUnit(token.decimals);
    return {
      user: conformanceUser,
      originChainId: origin.id,
      destinationChainId: destination.id,
      originCurrency: token.address,
      destinationCurrency: twin.address,
      amount: amount.toString(),
      tradeType: 'EXACT_INPUT',
    };
  }
  skipCheck(`chains ${origin.id} and ${destination.id} list no ERC-20 currency with the same symbol`);
}

/** The first ERC-20 of `origin` that `destination` lists too (by symbol), with its twin there. */
export function tokenOnBoth(origin: TargetChain, destination: TargetChain): { token: TargetCurrency; twin: TargetCurrency } | undefined {
  for (const token of origin.erc20Currencies) {
    const twin = destination.erc20Currencies.find((candidate) => candidate.symbol === token.symbol);
    if (twin) return { token, twin };
  }
  return undefined;
}

/** The chain's wrapped native token, by the usual naming (`W` + the native symbol), if it lists one. */
export function wrappedNativeOf(chain: TargetChain): TargetCurrency | undefined {
  const native = chain.currency?.symbol;
  if (!native) return undefined;
  return chain.erc20Currencies.find((token) => token.symbol.toUpperCase() === `W${native.toUpperCase()}`);
}

/** A same-chain swap from native currency into an ERC-20 that is not the wrapped native (a swap, not a wrap), or the check is skipped. */
export async function sameChainSwapRoute(target: ConformanceTarget): Promise<{ chain: TargetChain; from: TargetCurrency; to: TargetCurrency }> {
  for (const chain of await target.evmChains()) {
    const wrapped = wrappedNativeOf(chain);
    const to = chain.erc20Currencies.find((token) => token.address.toLowerCase() !== wrapped?.address.toLowerCase());
    if (to) return { chain, from: nativeCurrencyOf(chain), to };
  }
  skipCheck('no EVM chain lists an ERC-20 currency other than its wrapped native: no same-chain swap to ask for');
}

export function sameChainBody(chain: TargetChain, from: TargetCurrency, to: TargetCurrency, amount: bigint): QuoteBody {
  return {
    user: conformanceUser,
    originChainId: chain.id,
    destinationChainId: chain.id,
    originCurrency: from.address,
    destinationCurrency: to.address,
    amount: amount.toString(),
    tradeType: 'EXACT_INPUT',
  };
}

/** A decimal USD string ("29.718271") in micro-dollars; undefined when it is not a plain decimal. */
export function microUsdOf(usd: unknown): bigint | undefined {
  if (typeof usd !== 'string' || !/^\d+(\.\d+)?$/.test(usd)) return undefined;
  const [whole, fraction = ''] = usd.split('.');
  return BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6));
}

/**
 * The amount of `from` worth about `microUsd` micro-dollars, priced by the target itself: `POST
 * /price` of one whole unit of the same-chain route, scaled by its `details.currencyIn.amountUsd`.
 * Skips the check when the target gives no USD value.
 */
export async function amountWorthUsd(http: ConformanceHttp, chain: TargetChain, from: TargetCurrency, to: TargetCurrency, microUsd: bigint): Promise<bigint> {
  const unit = 10n ** BigInt(from.decimals);
  const exchange = await http.post('/price', sameChainBody(chain, from, to, unit));
  const unitMicroUsd = microUsdOf((exchange.json as { details?: { currencyIn?: { amountUsd?: unknown } } } | undefined)?.details?.currencyIn?.amountUsd);
  if (exchange.status !== 200 || unitMicroUsd === undefined || unitMicroUsd === 0n) skipCheck(`POST /price gives no USD value for one ${from.symbol} on chain ${chain.id} (HTTP ${exchange.status})`);
  const amount = (unit * microUsd) / unitMicroUsd;
  if (amount === 0n) skipCheck(`one smallest unit of ${from.symbol} is worth more than ${microUsd} micro-dollars`);
  return amount;
}
