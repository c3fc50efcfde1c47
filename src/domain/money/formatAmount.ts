import { formatUnits } from 'viem';
import type { Currency } from '../chain/currency';

/** An amount for people: `0.01 ETH`, `25.5 USDC` (never smallest units named as the currency). */
export function formatAmount(amount: bigint, currency: Pick<Currency, 'decimals' | 'symbol'>): string {
  return `${formatUnits(amount, currency.decimals)} ${currency.symbol}`;
}
