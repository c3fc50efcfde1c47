import { afterAll, describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/loadScenarioFile';
import { runScenario } from '../../src/scenario/runScenario';
import { ReusedScenarioSimulator, runsOnReusedSimulator } from '../../src/scenario/ReusedScenarioSimulator';
import { pooledNodes } from '../support/pooledNodes';

/**
 * Which runs take the kept simulator and when it is started again. That a run on it reset gives
 * what a fresh start gives (webhooks, faults of the in-process ledgers, another scenario run on it
 * before) is proven by the library test (test/support/scenarioLibrary.ts: each scenario run twice).
 */
describe('runScenario with a kept simulator (ReusedScenarioSimulator)', () => {
  const reused = new ReusedScenarioSimulator();
  afterAll(() => reused.stop());
  const run = (name: string, seed?: number) => runScenario(loadScenarioFile(`scenarios/${name}.yaml`), { nodes: pooledNodes(), reuse: { simulator: reused }, ...(seed === undefined ? {} : { seed }) });

  it('the same start options take it reset, other ones start another; a scenario that restarts starts its own, the kept one stopped first (its nodes are reset)', async () => {
    const first = await run('bridge/usdc-bridge-success');
    expect(reused.taken).toEqual({ started: 1, reset: 0 });
    const again = await run('bridge/usdc-bridge-success');
    expect(reused.taken).toEqual({ started: 1, reset: 1 });
    expect(again.timeline).toBe(first.timeline);
    // another seed: other options
    const otherSeed = await run('bridge/usdc-bridge-success', 2);
    expect(otherSeed.passed, otherSeed.timeline).toBe(true);
    expect(reused.taken).toEqual({ started: 2, reset: 1 });
    const restarts = await run('more/restart-after-success');
    expect(restarts.passed, restarts.timeline).toBe(true);
    expect(reused.taken).toEqual({ started: 2, reset: 1 });
    // the kept one was stopped for it: the next run with its options starts another
    const after = await run('bridge/usdc-bridge-success', 2);
    expect(after.timeline).toBe(otherSeed.timeline);
    expect(reused.taken).toEqual({ started: 3, reset: 1 });
  });

  it('a scenario that forks a chain, restarts or takes snapshots (their ids count on from those taken before) does not run on it', () => {
    expect(runsOnReusedSimulator(loadScenarioFile('scenarios/non-evm/svm-snapshot-revert.yaml'))).toBe(false);
    expect(runsOnReusedSimulator(loadScenarioFile('scenarios/restart/restart-mid-request.yaml'))).toBe(false);
    const forked = 'fork: { "1": { url: "http://127.0.0.1:1" } }\nchains: [1]\nsteps:\n  - advanceClock: { seconds: 1 }\n';
    expect(runsOnReusedSimulator(loadScenarioFile('forked.yaml', forked))).toBe(false);
    expect(runsOnReusedSimulator(loadScenarioFile('scenarios/bridge/usdc-bridge-success.yaml'))).toBe(true);
  });
});
