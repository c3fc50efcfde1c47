import type { ChainAdapter } from '../chains/ChainAdapter';
import type { Currency } from '../domain/chain/currency';
import { DepositAddressNotFoundError } from '../errors/lookupErrors';
import { UnsupportedCurrencyError } from '../errors/quoteErrors';
import type { DepositAddressStore } from '../store/DepositAddressStore';
import { chainOrThrow } from './chainOrThrow';

export interface ReindexParams {
  chainId: number;
  depositAddress: string;
  targetChainId?: number;
  currency?: string;
}

/**
 * `POST /transactions/deposit-address/reindex`: indexes the target chain to its head now (the
 * watcher's own flow, which spots a payment into a deposit address and has the solver sweep it),
 * then reads the address's balance of each currency (or the one named). Currencies with a balance
 * are reported as triggered. LIMITATION: a balance the watcher cannot see as a payment (a native
 * transfer made by a contract, a second payment after the sweep) is reported, not swept.
 */
export async function reindexDepositAddress(chains: ReadonlyMap<number, ChainAdapter>, store: DepositAddressStore, params: ReindexParams) {
  chainOrThrow(chains, params.chainId);
  const registered = store.at(params.chainId, params.depositAddress);
  if (!registered) throw new DepositAddressNotFoundError(params.chainId, params.depositAddress);
  const target = chainOrThrow(chains, params.targetChainId ?? params.chainId);
  const currencies = currenciesToCheck(target, params.currency);
  await target.syncNow();
  const reads = await Promise.allSettled(currencies.map((currency) => target.balanceOf(registered.address, currency)));
  const triggered = currencies.flatMap((currency, index) => {
    const read = reads[index]!;
    return read.status === 'fulfilled' && read.value > 0n ? [{ currency: currency.address, symbol: currency.symbol, balance: read.value.toString() }] : [];
  });
  const failed = reads.filter((read) => read.status === 'rejected').length;
  return {
    message: `Reindexed deposit address ${registered.address} on chain ${target.chainId}: ${triggered.length} of ${currencies.length} currencies hold a balance`,
    triggeredCurrencies: triggered,
    checkedCurrencies: currencies.length,
    failedCurrencies: failed,
  };
}

function currenciesToCheck(chain: ChainAdapter, address: string | undefined): Currency[] {
  if (address !== undefined) {
    const currency = chain.findCurrency(address);
    if (!currency) throw new UnsupportedCurrencyError(address, chain.chainId);
    return [currency];
  }
  const described = chain.describe();
  return [described.nativeCurrency, ...described.erc20Currencies];
}
