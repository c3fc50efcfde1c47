import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/loadScenarioFile';
import { runScenario } from '../../src/scenario/runScenario';
import { pooledNodes } from '../support/pooledNodes';

/** The Solana fault scenarios (issue 23, part 2): each meets its expectations, and a second run gives the same timeline. */
const SCENARIOS = [
  'svm-deposit-rolled-back-before-fill.yaml',
  'svm-deposit-rolled-back-after-fill.yaml',
  'svm-fill-dropped-not-included.yaml',
  'svm-deposit-dropped-waiting.yaml',
  'svm-fill-insufficient-funds-for-rent.yaml',
  'svm-snapshot-revert.yaml',
];

/** What the Solana ledger recorded of a run's requests: every entry on the Solana chain, whole (its slots and times are the virtual clock's). */
function solanaEntries(records: Record<string, unknown>): unknown[] {
  return Object.values(records).flatMap((record) => {
    const { data } = record as { data: { inTxs: Array<{ chainId: number }>; outTxs: Array<{ chainId: number }> } };
    return [...data.inTxs, ...data.outTxs].filter((entry) => entry.chainId === 792703809);
  });
}

describe('Solana fault scenarios (scenarios/non-evm/svm-*)', () => {
  for (const name of SCENARIOS) {
    it(`${name}: as expected, twice with the same timeline and Solana entries`, async () => {
      const scenario = loadScenarioFile(join('scenarios', 'non-evm', name));
      const first = await runScenario(scenario, { nodes: pooledNodes() });
      expect(first.error, first.timeline).toBeUndefined();
      expect(first.mismatches, first.timeline).toEqual([]);
      const second = await runScenario(loadScenarioFile(join('scenarios', 'non-evm', name)), { nodes: pooledNodes() });
      expect(second.timeline).toBe(first.timeline);
      expect(solanaEntries(second.records)).toEqual(solanaEntries(first.records));
    });
  }
});
