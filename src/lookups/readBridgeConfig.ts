import type { ChainAdapter } from '../chains/ChainAdapter';
import type { Currency } from '../domain/chain/currency';
import { currencyGroupId } from '../domain/chain/currencySearch';
import { convertAmount } from '../domain/money/usdValue';

export interface BridgeConfigParams {
  origin: ChainAdapter;
  destination: ChainAdapter;
  /** The currency on the origin chain; its counterpart on the destination has the same group id. */
  originCurrency: Currency | undefined;
  destinationCurrency: Currency | undefined;
  user?: string;
}

/** The currency of a chain with a group id (`eth`, `usdc`, `weth`, …). */
export function currencyWithGroupId(chain: ChainAdapter, id: string): Currency | undefined {
  const described = chain.describe();
  return [described.nativeCurrency, ...described.erc20Currencies].find((currency) => currencyGroupId(currency) === id.toLowerCase());
}

/**
 * `GET /config` and `/config/v2`, read from the chains now: the solver's balance of the currency on
 * the destination (all of it is available to one request: `capacityPerRequest`), the user's balance
 * on the origin and the most of it a bridge can take (less the deposit's gas for a native
 * currency, at most what the solver can pay out, at fixture prices), and `fee`: the gas of a plain
 * fill on the destination in the currency (the fixed part of a quote's relayer fee; the service
 * fee is a share of the amount, which a config look-up does not have).
 */
export async function readBridgeConfig(params: BridgeConfigParams) {
  const { origin, destination, originCurrency, destinationCurrency } = params;
  const solverAddress = destination.describe().solverAddress;
  const solverBalance = destinationCurrency ? await destination.balanceOf(solverAddress, destinationCurrency) : 0n;
  const fee = destinationCurrency ? feeOfPlainFill(destination, destinationCurrency) : 0n;
  const user =
    params.user === undefined || !originCurrency
      ? undefined
      : await userLimits(origin, params.user, originCurrency, destinationCurrency ? convertAmount(solverBalance, destinationCurrency, originCurrency, 'down') : 0n);
  return {
    enabled: originCurrency !== undefined && destinationCurrency !== undefined,
    ...(user ? { user: { balance: user.balance.toString(), maxBridgeAmount: user.maxBridgeAmount.toString() } } : {}),
    fee: fee.toString(),
    solver: { address: solverAddress, balance: solverBalance.toString(), capacityPerRequest: solverBalance.toString() },
    supportsExternalLiquidity: false,
  };
}

function feeOfPlainFill(destination: ChainAdapter, currency: Currency): bigint {
  const gas = destination.gasCosts.fill(currency, 'transfer');
  return convertAmount(gas.amount, gas.currency, currency, 'up');
}

async function userLimits(origin: ChainAdapter, user: string, currency: Currency, solverCapacity: bigint) {
  const balance = await origin.balanceOf(user, currency);
  const spendable = currency.isNative ? balance - origin.gasCosts.deposit(currency, false) : balance;
  const most = spendable < solverCapacity ? spendable : solverCapacity;
  return { balance, maxBridgeAmount: most > 0n ? most : 0n };
}
