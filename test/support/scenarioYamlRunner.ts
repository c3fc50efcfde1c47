import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/loadScenarioFile';
import { runScenario } from '../../src/scenario/runScenario';
import { pooledNodes } from './pooledNodes';

/**
 * Runs scenarios written as YAML text on this worker's pooled chains: each is written to a file
 * of a temporary folder (removed after the test file) and run; returns its result.
 */
export function scenarioYamlRunner(prefix: string): (name: string, yaml: string) => ReturnType<typeof runScenario> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return (name, yaml) => {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, yaml);
    return runScenario(loadScenarioFile(file), { nodes: pooledNodes() });
  };
}
