import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/loadScenarioFile';
import { runScenario } from '../../src/scenario/runScenario';
import { pooledNodes } from '../support/pooledNodes';

// A scenario's result holds the §2.3 record of every named quote, however many: the runner reads
// them at the end, at one instant of the manual clock, where one GET /requests/v3 per quote ran
// into the key's listing rate (20 a second) and left the last ones null.

describe('scenario records', () => {
  it('a scenario of 26 quotes has the record of each, by its name', async () => {
    const result = await runScenario(loadScenarioFile('scenarios/scripted/fail-reasons-without-local-cause.yaml'), { nodes: pooledNodes() });
    expect(result.error, result.timeline).toBeUndefined();
    const names = Array.from({ length: 26 }, (_, index) => `r${index + 1}`);
    expect(Object.keys(result.records).sort()).toEqual([...names].sort());
    for (const name of names) expect(result.records[name], name).toMatchObject({ status: 'refund' });
  });
});
