import { formatUnits } from 'viem';
import type { Currency } from '../chain/currency';
import { SPONSOR_COMPONENTS, type SponsorshipResolution } from './feeSponsorship';
import { formatUsd, usdMicrosOf } from '../money/usdValue';

function bucketAmount(currency: Currency, amount: bigint) {
  return {
    amount: amount.toString(),
    amountFormatted: formatUnits(amount, currency.decimals),
    amountUsd: formatUsd(usdMicrosOf(amount, currency)),
    minimumAmount: amount.toString(),
  };
}

/**
 * SPEC §2.3 `data.feeSponsorship.quoted`: the selected buckets, the cap (USD micro-units, as
 * requested) and, per bucket, total / sponsored / userPays in the input currency; then the
 * sums over the buckets, `sponsoredTotal` and `userPaysTotal` (the SPEC stops showing the record
 * after the buckets; the service's published types require both).
 */
export function buildFeeSponsorshipQuoted(resolution: SponsorshipResolution, currency: Currency, capUsdMicros: bigint | null) {
  return {
    selectedComponents: resolution.selectedComponents,
    ...(capUsdMicros === null ? {} : { maxSubsidizationAmount: capUsdMicros.toString() }),
    capHit: resolution.capHit,
    components: Object.fromEntries(
      SPONSOR_COMPONENTS.map((component) => {
        const bucket = resolution.components[component];
        return [
          component,
          {
            selected: bucket.selected,
            total: bucketAmount(currency, bucket.total),
            sponsored: bucketAmount(currency, bucket.sponsored),
            userPays: bucketAmount(currency, bucket.userPays),
          },
        ];
      }),
    ),
    sponsoredTotal: bucketAmount(currency, resolution.sponsoredTotal),
    userPaysTotal: bucketAmount(currency, resolution.userPaysTotal),
  };
}
