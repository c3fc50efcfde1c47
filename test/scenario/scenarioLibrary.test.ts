import { describe, expect, it } from 'vitest';
import { findScenarioFiles } from '../../src/scenario/runScenarioFiles';
import { loadScenarioFile } from '../../src/scenario/loadScenarioFile';
import { runScenario } from '../../src/scenario/runScenario';
import { pooledNodes } from '../support/pooledNodes';

/**
 * The whole scenario library (scenarios/**), each scenario on this worker's pooled chains:
 * every expectation met, every status, transition and reason it `covers:` reached.
 */
describe('scenario library', () => {
  for (const { file, relativeName } of findScenarioFiles(['scenarios'])) {
    it(relativeName, async () => {
      const result = await runScenario(loadScenarioFile(file), { nodes: pooledNodes() });
      expect(result.error, result.timeline).toBeUndefined();
      expect(result.mismatches, result.timeline).toEqual([]);
    });
  }
});
