import type { Currency } from '../chain/currency';
import { usdMicrosOf } from '../money/usdValue';
import type { RefundFailReason } from '../request/requestStatus';

type Amount = { amount: bigint; currency: Pick<Currency, 'chainId' | 'address' | 'decimals' | 'priceUsdMicros'> };

function sameCurrency(a: Amount['currency'], b: Amount['currency']): boolean {
  return a.chainId === b.chainId && a.address.toLowerCase() === b.address.toLowerCase();
}

/**
 * SPEC §7.4: the refund a failed request would get is not sent when what would come back is
 * worth no more than the refund transaction's gas (AMOUNT_TOO_LOW_TO_REFUND). Compared in the
 * refund's own currency when the gas is paid in it, else in USD. Null: the refund is sent.
 */
export function refundFailReasonBeforeSending(refund: Amount, gasCost: Amount): RefundFailReason | null {
  const tooLow = sameCurrency(refund.currency, gasCost.currency)
    ? refund.amount <= gasCost.amount
    : usdMicrosOf(refund.amount, refund.currency) <= usdMicrosOf(gasCost.amount, gasCost.currency);
  return tooLow ? 'AMOUNT_TOO_LOW_TO_REFUND' : null;
}
