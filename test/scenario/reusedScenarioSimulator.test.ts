import { afterAll, describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/loadScenarioFile';
import { runScenario, type ScenarioResult } from '../../src/scenario/runScenario';
import { ReusedScenarioSimulator, runsOnReusedSimulator } from '../../src/scenario/ReusedScenarioSimulator';
import { pooledNodes } from '../support/pooledNodes';
import { DEFAULT_EVM_CHAIN_IDS } from '../../fixtures/chains';

const reused = new ReusedScenarioSimulator();
afterAll(() => reused.stop());

const run = (name: string, fresh = false) => runScenario(loadScenarioFile(`scenarios/${name}.yaml`), { nodes: pooledNodes(), reuse: { simulator: reused, fresh } });

const EVM = new Set<number>(DEFAULT_EVM_CHAIN_IDS);

/**
 * All a result says, the whole of every record included but the times of the EVM legs' blocks:
 * the pooled Anvil's own (wall) time, which differs between two fresh starts as well.
 */
const said = (result: ScenarioResult) => ({
  error: result.error,
  mismatches: result.mismatches,
  timeline: result.timeline,
  records: JSON.parse(JSON.stringify(result.records, (_, value: unknown) => (isEvmEntry(value) ? { ...value, timestamp: "the pooled Anvil's time" } : value))) as unknown,
});
const isEvmEntry = (value: unknown): value is { chainId: number; timestamp: unknown } =>
  typeof value === 'object' && value !== null && 'timestamp' in value && 'chainId' in value && EVM.has(value.chainId as number);

describe('a scenario on a kept simulator reset to its start (ReusedScenarioSimulator)', () => {
  it('with webhooks (attempts answered 500, 503, 429, then 200): after another scenario ran on it, the same result as on a fresh start', async () => {
    const fresh = await run('webhooks/retries-until-accepted', true);
    expect(fresh.passed, fresh.timeline).toBe(true);
    expect(fresh.timeline).toMatch(/webhook \w+ attempt 4 → 200/);
    const between = await run('more/pending-webhook-only');
    expect(between.passed, between.timeline).toBe(true);
    const again = await run('webhooks/retries-until-accepted');
    expect(reused.taken).toEqual({ started: 1, reset: 2 });
    expect(said(again)).toEqual(said(fresh));
  });

  it('with a fault (a Bitcoin deposit double-spent after the fill): after another scenario ran on it (a reorg after a fill), the same result as on a fresh start', async () => {
    const fresh = await run('non-evm/bvm-deposit-double-spent-after-fill', true);
    expect(fresh.passed, fresh.timeline).toBe(true);
    const between = await run('non-evm/bvm-reorg-after-fill-reconfirmed');
    expect(between.passed, between.timeline).toBe(true);
    const again = await run('non-evm/bvm-deposit-double-spent-after-fill');
    expect(reused.taken).toEqual({ started: 2, reset: 4 });
    expect(said(again)).toEqual(said(fresh));
  });

  it('a run with other start options stops the kept simulator and starts another; one that restarts, forks or takes snapshots starts its own', async () => {
    const other = await run('bridge/usdc-bridge-success');
    expect(other.passed, other.timeline).toBe(true);
    expect(reused.taken).toEqual({ started: 3, reset: 4 });
    const snapshots = loadScenarioFile('scenarios/non-evm/svm-snapshot-revert.yaml');
    expect(runsOnReusedSimulator(snapshots)).toBe(false);
    expect(runsOnReusedSimulator(loadScenarioFile('scenarios/restart/restart-mid-request.yaml'))).toBe(false);
    const own = await runScenario(snapshots, { nodes: pooledNodes(), reuse: { simulator: reused } });
    expect(own.passed, own.timeline).toBe(true);
    // its own start reset the nodes the kept one held: that one was stopped first, and the next run starts another
    expect(reused.taken).toEqual({ started: 3, reset: 4 });
    await run('bridge/usdc-bridge-success');
    expect(reused.taken).toEqual({ started: 4, reset: 4 });
  });
});
