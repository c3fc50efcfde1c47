/**
 * Fee sponsorship (SPEC §1.6, §2.3 `feeSponsorship.quoted`): a sponsor pays the selected fee
 * buckets, in bucket order, up to an optional cap; the user pays the rest. Pure bigint math in
 * one currency (the quote's input currency).
 */
export const SPONSOR_COMPONENTS = ['execution', 'swap', 'platform', 'app', 'rent'] as const;
export type SponsorComponent = (typeof SPONSOR_COMPONENTS)[number];

/** What `subsidizeFees: true` sponsors when no components are named: everything but rent. */
export const DEFAULT_SPONSORED_COMPONENTS: readonly SponsorComponent[] = ['execution', 'swap', 'platform', 'app'];

export interface SponsorshipBucket {
  selected: boolean;
  total: bigint;
  sponsored: bigint;
  userPays: bigint;
}

export interface SponsorshipResolution {
  selectedComponents: SponsorComponent[];
  /** The cap in the input currency, when one was configured. */
  cap: bigint | null;
  capHit: boolean;
  components: Record<SponsorComponent, SponsorshipBucket>;
  sponsoredTotal: bigint;
  userPaysTotal: bigint;
}

export function resolveFeeSponsorship(params: {
  totals: Record<SponsorComponent, bigint>;
  selected: readonly SponsorComponent[];
  /** Cap in the same unit as the totals; null = uncapped. */
  cap: bigint | null;
}): SponsorshipResolution {
  const selected = new Set(params.selected);
  let remaining = params.cap ?? null;
  let selectedTotal = 0n;
  const components = {} as Record<SponsorComponent, SponsorshipBucket>;
  for (const component of SPONSOR_COMPONENTS) {
    const total = params.totals[component] < 0n ? 0n : params.totals[component];
    const isSelected = selected.has(component);
    let sponsored = 0n;
    if (isSelected) {
      selectedTotal += total;
      sponsored = remaining === null ? total : total < remaining ? total : remaining;
      if (remaining !== null) remaining -= sponsored;
    }
    components[component] = { selected: isSelected, total, sponsored, userPays: total - sponsored };
  }
  const sponsoredTotal = SPONSOR_COMPONENTS.reduce((sum, c) => sum + components[c].sponsored, 0n);
  const allTotal = SPONSOR_COMPONENTS.reduce((sum, c) => sum + components[c].total, 0n);
  return {
    selectedComponents: SPONSOR_COMPONENTS.filter((c) => selected.has(c)),
    cap: params.cap,
    capHit: params.cap !== null && selectedTotal > params.cap,
    components,
    sponsoredTotal,
    userPaysTotal: allTotal - sponsoredTotal,
  };
}
