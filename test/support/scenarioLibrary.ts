import { describe, expect, it } from 'vitest';
import { findScenarioFiles } from '../../src/scenario/runScenarioFiles';
import { loadScenarioFile } from '../../src/scenario/loadScenarioFile';
import { runScenario } from '../../src/scenario/runScenario';
import { pooledNodes } from './pooledNodes';
import { nonEvmEntries, RECORDS_HOLD, RUN_TWICE, TIMELINE_SAYS } from './scenarioLibraryRerun';

/**
 * The scenario library (scenarios/**), each scenario on this worker's pooled chains: every
 * expectation met, every status, transition and reason it `covers:` reached, what some timelines
 * and records must say beyond that (test/support/scenarioLibraryRerun.ts); the fault scenarios
 * of the in-process ledgers run twice and repeat byte for byte (test/support/scenarioLibraryRerun.ts).
 * The library is split in two files (even and odd positions) so both test workers run scenarios.
 */
export function describeScenarioLibraryHalf(half: 0 | 1): void {
  describe(`scenario library (${half === 0 ? 'even' : 'odd'} positions)`, () => {
    const library = findScenarioFiles(['scenarios']);
    if (half === 0) {
      it('every scenario run twice or read for what its timeline or records say is in the library', () => {
        const names = new Set(library.map((entry) => entry.relativeName));
        expect([...RUN_TWICE, ...Object.keys(TIMELINE_SAYS), ...Object.keys(RECORDS_HOLD)].filter((name) => !names.has(name))).toEqual([]);
      });
    }
    for (const [index, { file, relativeName }] of library.entries()) {
      if (index % 2 !== half) continue;
      const twice = RUN_TWICE.has(relativeName);
      it(twice ? `${relativeName} (twice: the same timeline and non-EVM entries)` : relativeName, async () => {
        const result = await runScenario(loadScenarioFile(file), { nodes: pooledNodes() });
        expect(result.error, result.timeline).toBeUndefined();
        expect(result.mismatches, result.timeline).toEqual([]);
        for (const said of TIMELINE_SAYS[relativeName] ?? []) expect(result.timeline).toMatch(said);
        RECORDS_HOLD[relativeName]?.(result.records);
        if (!twice) return;
        const second = await runScenario(loadScenarioFile(file), { nodes: pooledNodes() });
        expect(second.mismatches, second.timeline).toEqual([]);
        expect(second.timeline).toBe(result.timeline);
        expect(nonEvmEntries(second.records)).toEqual(nonEvmEntries(result.records));
      });
    }
  });
}
