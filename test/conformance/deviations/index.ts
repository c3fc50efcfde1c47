import type { Deviation } from '../deviationProxy';
import { chainsDeviations } from './chainsDeviations';
import { lifecycleDeviations } from './lifecycleDeviations';
import { listingDeviations } from './listingDeviations';
import { quoteDeviations } from './quoteDeviations';
import { signatureDeviations } from './signatureDeviations';
import { statusDeviations } from './statusDeviations';
import { versioningDeviations } from './versioningDeviations';
import { webhookDeviations } from './webhookDeviations';

/**
 * Every deviation the suite must catch, one family per file (data, not code paths): the
 * deviation test starts a proxy with each in turn and expects a failing check in its section.
 */
export const allDeviations: readonly Deviation[] = [
  ...chainsDeviations,
  ...quoteDeviations,
  ...listingDeviations,
  ...statusDeviations,
  ...signatureDeviations,
  ...versioningDeviations,
  ...lifecycleDeviations,
  ...webhookDeviations,
];
