import type { Currency } from '../chain/currency';

/** SPEC §1.5 trade types. */
export const TRADE_TYPES = ['EXACT_INPUT', 'EXPECTED_OUTPUT', 'EXACT_OUTPUT'] as const;
export type TradeType = (typeof TRADE_TYPES)[number];

/** What the fee and trade-type math needs of a currency. */
export type PricedCurrency = Pick<Currency, 'decimals' | 'priceUsdMicros'>;

/** The amounts every quote settles on (docs/endpoints.md ("Fee model")), in smallest units. */
export interface QuoteAmounts {
  amountIn: bigint;
  amountOut: bigint;
  minimumAmountOut: bigint;
  /** Fill gas, charged in the input currency. */
  relayerGas: bigint;
  /** Service fee, charged in the input currency. */
  relayerService: bigint;
  /** relayerGas + relayerService. */
  relayer: bigint;
}

/** What the solver does with a deposit: pay `amountOut`, or refund for a reason. */
export type FillDecision =
  | { kind: 'fill'; amountOut: bigint }
  | { kind: 'refund'; failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' | 'NEGATIVE_NEW_AMOUNT_AFTER_FEES' };
