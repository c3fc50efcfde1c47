import type { ScenarioFileOutcome } from './ScenarioFileOutcome';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A JUnit XML report: one test case per scenario file, its failures and the step that broke. */
export function junitReport(outcomes: readonly ScenarioFileOutcome[]): string {
  const failed = outcomes.filter((outcome) => !outcome.result?.passed);
  const cases = outcomes.map((outcome) => {
    const name = escapeXml(outcome.relativeName);
    const time = (outcome.wallMs / 1000).toFixed(3);
    if (outcome.result?.passed) return `  <testcase classname="scenarios" name="${name}" time="${time}"/>`;
    const problems = outcome.result
      ? [...(outcome.result.error ? [outcome.result.error] : []), ...outcome.result.mismatches.map((m) => `step ${m.step} (line ${m.line}): ${m.what}: expected ${JSON.stringify(m.expected)}, actual ${JSON.stringify(m.actual)}`)]
      : [outcome.loadError ?? 'could not be loaded'];
    return `  <testcase classname="scenarios" name="${name}" time="${time}">\n    <failure message="${escapeXml(problems[0] ?? 'failed')}">${escapeXml(problems.join('\n'))}</failure>\n  </testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="intentsim scenarios" tests="${outcomes.length}" failures="${failed.length}">\n${cases.join('\n')}\n</testsuite>\n`;
}
