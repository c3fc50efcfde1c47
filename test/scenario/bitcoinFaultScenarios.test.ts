import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/loadScenarioFile';
import { runScenario } from '../../src/scenario/runScenario';
import { pooledNodes } from '../support/pooledNodes';

// covers: failReason:DOUBLE_SPEND, transition:success->failure, transition:pending->failure
/** The Bitcoin fault scenarios (docs/chains/bitcoin.md "Faults"): each passes twice with the same timeline, byte for byte, and the same deposit records. */
const FAULT_SCENARIOS = [
  'scenarios/non-evm/bvm-deposit-reorged-then-reconfirmed.yaml',
  'scenarios/non-evm/bvm-deposit-replaced-by-fee.yaml',
  'scenarios/non-evm/bvm-deposit-double-spent-in-reorg.yaml',
  'scenarios/non-evm/bvm-deposit-double-spent-after-fill.yaml',
  'scenarios/non-evm/bvm-reorg-after-fill-reconfirmed.yaml',
];

describe('Bitcoin fault scenarios', () => {
  for (const file of FAULT_SCENARIOS) {
    it(`${file} passes twice with byte-identical output`, async () => {
      const first = await runScenario(loadScenarioFile(file), { nodes: pooledNodes() });
      expect(first.error, first.timeline).toBeUndefined();
      expect(first.mismatches, first.timeline).toEqual([]);
      const second = await runScenario(loadScenarioFile(file), { nodes: pooledNodes() });
      expect(second.mismatches, second.timeline).toEqual([]);
      expect(second.timeline).toBe(first.timeline);
      // the Bitcoin side of the records (txids, blocks, fees, virtual times, reorg metadata) is the same too;
      // the Base fills carry the pooled Anvil's own block times
      const inTxs = (records: Record<string, unknown>) => JSON.stringify(Object.values(records).map((record) => (record as { data: { inTxs: unknown[] } }).data.inTxs));
      expect(inTxs(second.records)).toBe(inTxs(first.records));
    });
  }
});
