import type { AppFeeShare } from './appFees';
import type { Currency } from '../chain/currency';
import type { SponsorshipResolution } from './feeSponsorship';

/**
 * What a quote's options (SPEC §1.6: app fees, fee sponsorship, gas top-up, fixed rate) decided,
 * kept with the request so the fill is revalidated against the same terms. Amounts are in the
 * input currency unless named otherwise.
 */
export interface QuoteOptionFacts {
  /** App fee shares, in input units (the record's `appFees` holds them in the stablecoin). */
  appFees: AppFeeShare[];
  appFeeBps: bigint;
  appFee: bigint;
  sponsorship: SponsorshipResolution | null;
  /** Sponsored total (0 without sponsorship). */
  sponsored: bigint;
  /** Extra destination native delivered to the recipient with the fill. */
  gasTopUp: { amount: bigint; currency: Currency } | null;
  /** Fixed-rate spread: basis points of the input and its amount. */
  fixedRate: { spreadBps: bigint; spread: bigint } | null;
}
