import { describe, expect, it } from 'vitest';
import { findScenarioFiles } from '../../src/scenario/runScenarioFiles';
import { loadScenarioFile } from '../../src/scenario/loadScenarioFile';
import { runScenario } from '../../src/scenario/runScenario';
import { pooledNodes } from './pooledNodes';

/**
 * The scenario library (scenarios/**), each scenario on this worker's pooled chains: every
 * expectation met, every status, transition and reason it `covers:` reached. The library is
 * split in two files (even and odd positions) so both test workers run scenarios.
 */
export function describeScenarioLibraryHalf(half: 0 | 1): void {
  describe(`scenario library (${half === 0 ? 'even' : 'odd'} positions)`, () => {
    for (const [index, { file, relativeName }] of findScenarioFiles(['scenarios']).entries()) {
      if (index % 2 !== half) continue;
      it(relativeName, async () => {
        const result = await runScenario(loadScenarioFile(file), { nodes: pooledNodes() });
        expect(result.error, result.timeline).toBeUndefined();
        expect(result.mismatches, result.timeline).toEqual([]);
      });
    }
  });
}
