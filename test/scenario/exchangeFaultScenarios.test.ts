import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/loadScenarioFile';
import { runScenario } from '../../src/scenario/runScenario';
import { pooledNodes } from '../support/pooledNodes';

const LVM = 3586256;

/** The Lighter fault scenarios (issue 23 part 3): each meets its expectations and gives the same bytes twice. */
const FILES = [
  'exchange-paused-recipient',
  'exchange-solver-key-revoked',
  'exchange-solver-collateral-short',
  'exchange-withdrawal-refused',
  'exchange-withdrawal-sent-twice',
  'exchange-snapshot-revert',
];

/** What Lighter recorded of a run's requests: its deposits and fills (the EVM legs carry the pooled Anvil's own block times). */
function exchangeEntries(records: Record<string, unknown>) {
  return Object.values(records).flatMap((record) => {
    const { data } = record as { data: { inTxs: Array<{ chainId: number }>; outTxs: Array<{ chainId: number }> } };
    return [...data.inTxs, ...data.outTxs].filter((tx) => tx.chainId === LVM);
  });
}

describe('Lighter fault scenarios (scenarios/non-evm/exchange-*.yaml)', () => {
  for (const name of FILES) {
    it(`${name}: every expectation met, the same timeline and Lighter entries twice`, async () => {
      const scenario = loadScenarioFile(`scenarios/non-evm/${name}.yaml`);
      const first = await runScenario(scenario, { nodes: pooledNodes() });
      expect(first.error, first.timeline).toBeUndefined();
      expect(first.mismatches, first.timeline).toEqual([]);
      const second = await runScenario(scenario, { nodes: pooledNodes() });
      expect(second.timeline).toBe(first.timeline);
      expect(exchangeEntries(second.records)).toEqual(exchangeEntries(first.records));
    });
  }

  it('the timelines say what Lighter refused, as its API answered', async () => {
    const refused = await runScenario(loadScenarioFile('scenarios/non-evm/exchange-withdrawal-refused.yaml'), { nodes: pooledNodes() });
    expect(refused.timeline).toContain('withdrawal: refused as expected: chain 3586256: the exchange refused the transfer: 403 ACCOUNT_PAUSED: account 2 is paused');
    expect(refused.timeline).toContain('withdrawal: refused as expected: chain 3586256: the exchange refused the transfer: 401 INVALID_API_KEY: the API key of account 2 was revoked');
    const twice = await runScenario(loadScenarioFile('scenarios/non-evm/exchange-withdrawal-sent-twice.yaml'), { nodes: pooledNodes() });
    expect(twice.timeline).toMatch(/sent \(tx [0-9a-f]{64}, account 2, nonce 1\) sent again: refused 400 INVALID_NONCE: nonce 1 is not above account 2's last nonce 1/);
  });
});
