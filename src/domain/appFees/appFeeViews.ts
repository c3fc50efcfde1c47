import type { Currency } from '../chain/currency';
import { amountObject } from '../money/amountObject';
import { formatUsd, usdMicrosOf } from '../money/usdValue';
import type { AppFeeClaim } from './appFeeClaim';

/** One balance, with the currency it is in. */
export interface PricedAppFeeBalance {
  currency: Currency;
  amount: bigint;
}

/**
 * `GET /app-fees/{wallet}/balances` (the SDK's published shape): an amount object per balance and
 * the USD totals. The totals are JSON numbers in the published type; they are made from exact
 * micro-USD decimals. The simulator has no outstanding fast-fill balance to deduct.
 */
export function appFeeBalancesView(balances: readonly PricedAppFeeBalance[]) {
  const totalMicros = balances.reduce((sum, balance) => sum + usdMicrosOf(balance.amount, balance.currency), 0n);
  const totalBalanceUsd = Number(formatUsd(totalMicros));
  return {
    balances: balances.map((balance) => amountObject(balance.currency, balance.amount)),
    totalBalanceUsd,
    outstandingFastFillBalanceUsd: 0,
    availableBalanceUsd: totalBalanceUsd,
  };
}

/** One entry of `GET /app-fees/{wallet}/claims` (the SDK's published shape; `createdAt` ISO). */
export function appFeeClaimView(claim: AppFeeClaim, currency: Currency) {
  return {
    claimId: claim.id,
    wallet: claim.wallet,
    recipient: claim.recipient,
    currency: amountObject(currency, claim.amount),
    txHash: claim.txHash,
    status: claim.status,
    createdAt: new Date(claim.createdAt).toISOString(),
  };
}
