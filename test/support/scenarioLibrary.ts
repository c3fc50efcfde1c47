import { afterAll, describe, expect, it } from 'vitest';
import { findScenarioFiles } from '../../src/scenario/runScenarioFiles';
import { loadScenarioFile } from '../../src/scenario/loadScenarioFile';
import { runScenario } from '../../src/scenario/runScenario';
import { ReusedScenarioSimulator, runsOnReusedSimulator } from '../../src/scenario/ReusedScenarioSimulator';
import type { Scenario } from '../../src/scenario/scenarioSchema';
import { pooledNodes } from './pooledNodes';
import { nonEvmEntries, RECORDS_HOLD, RUN_TWICE, TIMELINE_SAYS } from './scenarioLibraryRerun';

/**
 * The scenario library (scenarios/**), each scenario on this worker's pooled chains: every
 * expectation met, every status, transition and reason it `covers:` reached, what some timelines
 * and records must say beyond that (test/support/scenarioLibraryRerun.ts); the fault scenarios
 * of the in-process ledgers run twice and repeat byte for byte (test/support/scenarioLibraryRerun.ts).
 * The library is split in two files (even and odd positions) so both test workers run scenarios.
 * A file keeps one simulator across its scenarios (ReusedScenarioSimulator: reset to its start
 * for a scenario with the same start options, ~10 ms where a start costs ~100 ms of CPU), and runs
 * them in the order of their start options so that the next one can take it. A scenario run twice
 * runs first on a fresh start and then on that simulator reset: the repeat proves a reset gives
 * what a fresh start gives.
 */
export function describeScenarioLibraryHalf(half: 0 | 1): void {
  describe(`scenario library (${half === 0 ? 'even' : 'odd'} positions)`, () => {
    const library = findScenarioFiles(['scenarios']);
    const reused = new ReusedScenarioSimulator();
    afterAll(() => reused.stop());
    if (half === 0) {
      it('every scenario run twice or read for what its timeline or records say is in the library', () => {
        const names = new Set(library.map((entry) => entry.relativeName));
        expect([...RUN_TWICE, ...Object.keys(TIMELINE_SAYS), ...Object.keys(RECORDS_HOLD)].filter((name) => !names.has(name))).toEqual([]);
      });
    }
    const mine = library
      .filter((_, index) => index % 2 === half)
      .map((entry) => {
        const scenario = loadScenarioFile(entry.file);
        return { ...entry, scenario, ...startOptionsOf(scenario) };
      })
      .sort((a, b) => a.startKey.localeCompare(b.startKey));
    for (const { scenario, relativeName, reusable } of mine) {
      const twice = RUN_TWICE.has(relativeName);
      const how = reusable ? 'a fresh start then a reset' : 'two fresh starts';
      it(twice ? `${relativeName} (twice, ${how}: the same timeline and non-EVM entries)` : relativeName, async () => {
        const resetsBefore = reused.taken.reset;
        const result = await runScenario(scenario, { nodes: pooledNodes(), reuse: { simulator: reused, fresh: twice } });
        expect(result.error, result.timeline).toBeUndefined();
        expect(result.mismatches, result.timeline).toEqual([]);
        for (const said of TIMELINE_SAYS[relativeName] ?? []) expect(result.timeline).toMatch(said);
        RECORDS_HOLD[relativeName]?.(result.records);
        if (!twice) return;
        const second = await runScenario(scenario, { nodes: pooledNodes(), reuse: { simulator: reused } });
        if (reusable) expect(reused.taken.reset, 'the second run took the first one\'s simulator, reset').toBe(resetsBefore + 1);
        expect(second.mismatches, second.timeline).toEqual([]);
        expect(second.timeline).toBe(result.timeline);
        expect(nonEvmEntries(second.records)).toEqual(nonEvmEntries(result.records));
      });
    }
    it('each scenario with the start options of the one before ran on its simulator, reset (and each run twice, the second time)', () => {
      let kept: string | undefined;
      const expected = { started: 0, reset: 0 };
      for (const { startKey, reusable, relativeName } of mine) {
        if (!reusable) kept = undefined;
        else if (RUN_TWICE.has(relativeName)) {
          expected.started++;
          expected.reset++;
          kept = startKey;
        } else {
          expected[startKey === kept ? 'reset' : 'started']++;
          kept = startKey;
        }
      }
      expect(reused.taken).toEqual(expected);
    });
  });
}

/**
 * What a scenario's simulator is started with (seed, chains, config, a webhook receiver or not):
 * scenarios alike run one after another. Not `reusable` (runsOnReusedSimulator): one that starts its own.
 */
function startOptionsOf(scenario: Scenario): { startKey: string; reusable: boolean } {
  return {
    startKey: JSON.stringify([scenario.seed ?? 1, scenario.chains ?? [], scenario.config ?? {}, scenario.webhook !== undefined], (_, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value)),
    reusable: runsOnReusedSimulator(scenario),
  };
}
