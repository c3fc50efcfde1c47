import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (docs/testing.md, "How long the suite takes") start first, in this
 * order; the rest follow in vitest's own order (longest last run first, or largest file first on
 * a fresh clone, which has no timings yet). Two workers take the next file as they come free, so
 * a long file started last would leave one core idle until it ends.
 */
const SLOWEST_FIRST = [
  'test/package/installedPackage.test.ts',
  'test/docs/docCodeBlocks.test.ts',
  'test/scenario/scenarioLibraryEven.test.ts',
  'test/scenario/scenarioLibraryOdd.test.ts',
  'test/property/requestLifecycle.test.ts',
  'test/explorer/explorerInBrowser.test.ts',
  'test/conformance/deviations.test.ts',
  'test/store/listingPrefilter.test.ts',
];

function rank(file: TestSpecification): number {
  const index = SLOWEST_FIRST.findIndex((path) => file.moduleId.endsWith(`/${path}`));
  return index === -1 ? SLOWEST_FIRST.length : index;
}

export default class SlowestFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}
