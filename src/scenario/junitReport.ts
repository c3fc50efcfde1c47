import { junitXml } from '../../conformance/report/junitXml';
import { shardSuffix, type Shard } from '../../conformance/shard';
import type { ScenarioFileOutcome } from './ScenarioFileOutcome';

/** A JUnit XML report: one test case per scenario file, its failures and the step that broke. */
export function junitReport(outcomes: readonly ScenarioFileOutcome[], shard?: Shard): string {
  return junitXml(
    `intentsim scenarios${shardSuffix(shard)}`,
    outcomes.map((outcome) => {
      const base = { classname: 'scenarios', name: outcome.relativeName, timeMs: outcome.wallMs };
      if (outcome.result?.passed) return base;
      const problems = outcome.result
        ? [...(outcome.result.error ? [outcome.result.error] : []), ...outcome.result.mismatches.map((m) => `step ${m.step} (line ${m.line}): ${m.what}: expected ${JSON.stringify(m.expected)}, actual ${JSON.stringify(m.actual)}`)]
        : [outcome.loadError ?? 'could not be loaded'];
      return { ...base, failure: { message: problems[0] ?? 'failed', detail: problems.join('\n') } };
    }),
  );
}
