import type { ConformanceCheck } from '../check';
import { chainsChecks } from './chainsChecks';
import { lifecycleChecks } from './lifecycleChecks';
import { listingAuthChecks } from './listingAuthChecks';
import { listingFilterChecks } from './listingFilterChecks';
import { listingLimitChecks } from './listingLimitChecks';
import { listingPagingChecks } from './listingPagingChecks';
import { listingRecordChecks } from './listingRecordChecks';
import { listingSortChecks } from './listingSortChecks';
import { quoteChecks } from './quoteChecks';
import { quoteErrorChecks } from './quoteErrorChecks';
import { signatureChecks } from './signatureChecks';
import { statusChecks } from './statusChecks';
import { versioningChecks } from './versioningChecks';
import { webhookChecks } from './webhookChecks';

/**
 * Every check of the suite, by family. Each family file exports an array; ids are
 * `<family>.<name>` and unique.
 */
export const allChecks: readonly ConformanceCheck[] = [
  ...chainsChecks,
  ...quoteChecks,
  ...quoteErrorChecks,
  ...listingAuthChecks,
  ...listingLimitChecks,
  ...listingPagingChecks,
  ...listingSortChecks,
  ...listingFilterChecks,
  ...listingRecordChecks,
  ...statusChecks,
  ...signatureChecks,
  ...versioningChecks,
  ...lifecycleChecks,
  ...webhookChecks,
];
