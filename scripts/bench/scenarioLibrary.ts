import { runScenarioFiles } from '../../src/scenario/runScenarioFiles';
import { loadSimulatorConfig } from '../../src/config/simulatorConfig';

export interface ScenarioLibraryResult {
  scenarios: number;
  failed: number;
  /** Wall time of the whole run: nodes started once, every scenario, nodes stopped. */
  wallMs: number;
  scenariosPerSecond: number;
}

/** The whole scenario library as `intentsim scenario run scenarios/` runs it (one process, nodes pooled). */
export async function benchScenarioLibrary(paths: string[] = ['scenarios']): Promise<ScenarioLibraryResult> {
  const { anvilPath, anvilSearchPath } = loadSimulatorConfig({});
  const started = performance.now();
  const outcomes = await runScenarioFiles({ paths, anvilPath, anvilSearchPath });
  const wallMs = performance.now() - started;
  return {
    scenarios: outcomes.length,
    failed: outcomes.filter((outcome) => !outcome.result?.passed).length,
    wallMs,
    scenariosPerSecond: outcomes.length / (wallMs / 1000),
  };
}
