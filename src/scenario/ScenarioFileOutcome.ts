import type { ScenarioResult } from './runScenario';

/** What became of one scenario file in a run. */
export interface ScenarioFileOutcome {
  file: string;
  /** Where the file sits below the path it was found under (names its timeline file). */
  relativeName: string;
  result: ScenarioResult | undefined;
  /** The file could not be loaded (YAML or schema error, naming file, line and field). */
  loadError: string | undefined;
  wallMs: number;
}
