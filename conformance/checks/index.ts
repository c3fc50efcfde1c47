import type { ConformanceCheck } from '../check';
import { chainsChecks } from './chainsChecks';
import { lifecycleChecks } from './lifecycleChecks';
import { quoteChecks } from './quoteChecks';
import { quoteErrorChecks } from './quoteErrorChecks';
import { webhookChecks } from './webhookChecks';

/**
 * Every check of the suite, by family. Each family file exports an array; ids are
 * `<family>.<name>` and unique.
 */
export const allChecks: readonly ConformanceCheck[] = [...chainsChecks, ...quoteChecks, ...quoteErrorChecks, ...lifecycleChecks, ...webhookChecks];
