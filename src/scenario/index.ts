/**
 * The scenario runner's programmatic API (the package's `intentsim/scenario`): load a YAML
 * scenario, run it against a fresh simulator, or run files and directories as `intentsim scenario
 * run` does. The package entry `intentsim` exports the same names.
 */
export { runScenario, SCENARIO_CLOCK_START_MS, type ScenarioResult, type RunScenarioOptions } from './runScenario';
export { loadScenarioFile, ScenarioFileError } from './loadScenarioFile';
export { runScenarioFiles, type RunScenarioFilesOptions, type ScenarioFileOutcome } from './runScenarioFiles';
export type { Scenario } from './scenarioSchema';
export type { TimelineEntry } from './ScenarioTimeline';
