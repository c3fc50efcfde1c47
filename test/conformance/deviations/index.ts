import type { Deviation } from '../deviationProxy';
import { chainsDeviations } from './chainsDeviations';
import { listingDeviations } from './listingDeviations';
import { signatureDeviations } from './signatureDeviations';
import { statusDeviations } from './statusDeviations';
import { versioningDeviations } from './versioningDeviations';

/**
 * Every deviation the suite must catch, one family per file (data, not code paths): the
 * deviation test starts a proxy with each in turn and expects a failing check in its section.
 */
export const allDeviations: readonly Deviation[] = [
  ...chainsDeviations,
  ...listingDeviations,
  ...statusDeviations,
  ...signatureDeviations,
  ...versioningDeviations,
];
