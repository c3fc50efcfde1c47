import { afterAll, describe, expect, it } from 'vitest';
import { findScenarioFiles } from '../../src/scenario/runScenarioFiles';
import { loadScenarioFile } from '../../src/scenario/loadScenarioFile';
import { runScenario } from '../../src/scenario/runScenario';
import { ReusedScenarioSimulator, runsOnReusedSimulator, scenarioStartKey } from '../../src/scenario/ReusedScenarioSimulator';
import type { Scenario } from '../../src/scenario/scenarioSchema';
import { pooledNodes } from './pooledNodes';
import { recordsButEvmBlockTimes, RECORDS_HOLD, RUN_TWICE, TIMELINE_SAYS } from './scenarioLibraryRerun';

/**
 * The scenario library (scenarios/**), each scenario on this worker's pooled chains: every
 * expectation met, every status, transition and reason it `covers:` reached, what some timelines
 * and records must say beyond that (test/support/scenarioLibraryRerun.ts); the fault scenarios
 * of the in-process ledgers, and one with webhooks, run twice and repeat byte for byte
 * (test/support/scenarioLibraryRerun.ts). The library is split in two files (even and odd
 * positions) so both test workers run scenarios.
 *
 * A file keeps one simulator across its scenarios (ReusedScenarioSimulator): a scenario with the
 * start options of the one before (seed, chains, config, webhook receiver or not) runs on that
 * one's simulator put back to its start (~10 ms, where a start costs ~100 ms of CPU), so the file
 * runs its scenarios in the order of their start options. A scenario run twice runs first on the
 * simulator another scenario ran on, reset (when one with its options ran before it), then on a
 * fresh start: the repeat proves that a reset gives what a fresh start gives.
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
    const mine = runOrder(
      library
        .filter((_, index) => index % 2 === half)
        .map((entry) => {
          const scenario = loadScenarioFile(entry.file);
          return { ...entry, scenario, twice: RUN_TWICE.has(entry.relativeName), ...startOptionsOf(scenario) };
        }),
    );
    for (const { scenario, relativeName, twice, firstRun, taken } of mine) {
      const how = firstRun === 'reset' ? 'on the simulator another scenario ran on, reset, then on a fresh start' : 'on two fresh starts';
      it(twice ? `${relativeName} (twice, ${how}: the same timeline and records)` : relativeName, async () => {
        const result = await runScenario(scenario, { nodes: pooledNodes(), reuse: { simulator: reused } });
        expect(result.error, result.timeline).toBeUndefined();
        expect(result.mismatches, result.timeline).toEqual([]);
        for (const said of TIMELINE_SAYS[relativeName] ?? []) expect(result.timeline).toMatch(said);
        RECORDS_HOLD[relativeName]?.(result.records);
        if (twice) {
          const second = await runScenario(scenario, { nodes: pooledNodes(), reuse: { simulator: reused, fresh: true } });
          expect(second.mismatches, second.timeline).toEqual([]);
          expect(second.timeline).toBe(result.timeline);
          expect(recordsButEvmBlockTimes(second.records)).toEqual(recordsButEvmBlockTimes(result.records));
        }
        // the kept simulator was reset or started as the order says (a reset that failed would start one)
        expect(reused.taken).toEqual(taken);
      });
    }
  });
}

/**
 * What a scenario's simulator is started with (seed, chains, config, a webhook receiver or not).
 * Not `reusable` (runsOnReusedSimulator): one that starts its own.
 */
function startOptionsOf(scenario: Scenario): { startKey: string; reusable: boolean } {
  return {
    // the chains as the scenario names them: runs that share them share the chain options runScenario keys by
    startKey: scenarioStartKey({ seed: scenario.seed ?? 1, chains: scenario.chains ?? [], config: scenario.config ?? null, webhook: scenario.webhook !== undefined }),
    reusable: runsOnReusedSimulator(scenario),
  };
}

/**
 * The scenarios in the order of their start options, those run twice after the others with the
 * same options and those that start their own last; with how each one's first run gets its simulator (reset: one with its options ran
 * just before; else a start), and the kept simulator's counts once it is done.
 */
function runOrder<T extends { startKey: string; reusable: boolean; twice: boolean }>(entries: T[]): Array<T & { firstRun: 'reset' | 'start' | 'own'; taken: { started: number; reset: number } }> {
  // with the same options: those run once, then those run twice, then those that start their own
  const rank = (entry: T) => (!entry.reusable ? 2 : entry.twice ? 1 : 0);
  const sorted = [...entries].sort((a, b) => a.startKey.localeCompare(b.startKey) || rank(a) - rank(b));
  let kept: string | undefined;
  const counts = { started: 0, reset: 0 };
  return sorted.map((entry) => {
    let firstRun: 'reset' | 'start' | 'own' = 'own';
    if (!entry.reusable) kept = undefined;
    else {
      firstRun = entry.startKey === kept ? 'reset' : 'start';
      counts[firstRun === 'reset' ? 'reset' : 'started']++;
      // the second run of one run twice: a fresh start, kept
      if (entry.twice) counts.started++;
      kept = entry.startKey;
    }
    return { ...entry, firstRun, taken: { ...counts } };
  });
}
