import { formatUnits } from 'viem';
import type { Currency } from '../chain/currency';
import { formatUsd, usdMicrosOf } from './usdValue';

/** SPEC §2.2: the currency part of an amount object. */
export function currencyObject(currency: Currency) {
  return {
    chainId: currency.chainId,
    address: currency.address,
    symbol: currency.symbol,
    name: currency.name,
    decimals: currency.decimals,
    metadata: { logoURI: currency.logoURI, verified: currency.verified, isNative: currency.isNative },
  };
}

/** SPEC §2.2: an amount object (`currency`, `amount`, `amountFormatted`, `amountUsd`, `minimumAmount`). */
export function amountObject(currency: Currency, amount: bigint, minimumAmount: bigint = amount) {
  return {
    currency: currencyObject(currency),
    amount: amount.toString(),
    amountFormatted: formatUnits(amount, currency.decimals),
    amountUsd: formatUsd(usdMicrosOf(amount, currency)),
    minimumAmount: minimumAmount.toString(),
  };
}
