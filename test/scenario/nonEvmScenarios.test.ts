import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { startChainNodes } from '../../src/chains/startChainNodes';
import { loadScenarioFile } from '../../src/scenario/loadScenarioFile';
import { runScenario } from '../../src/scenario/runScenario';
import { ReusedScenarioSimulator } from '../../src/scenario/ReusedScenarioSimulator';
import { pooledNodes } from '../support/pooledNodes';

const dir = mkdtempSync(join(tmpdir(), 'intentsim-non-evm-scenario-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One scenario on every in-process ledger at once: each pays with its own wallet, as `account:0` of that chain. */
const EVERY_LEDGER = `chains: [8453, 792703809, 8253038, 3586256]
steps:
  - quote: { as: sol, originChainId: 792703809, destinationChainId: 8453, originCurrency: USDC, destinationCurrency: USDC, amount: "25000000", recipient: fresh:a }
  - quote: { as: btc, originChainId: 8253038, destinationChainId: 8453, originCurrency: BTC, destinationCurrency: USDC, amount: "1500000", recipient: fresh:b }
  - quote: { as: exchange, originChainId: 3586256, destinationChainId: 8453, originCurrency: USDC, destinationCurrency: USDC, amount: "20000000", recipient: fresh:c }
  - deposit: { request: sol }
  - deposit: { request: btc }
  - deposit: { request: exchange }
  - expect: { request: btc, status: pending }
  - mine: { chainId: 8253038 }
  - expect: { request: sol, status: success }
  - expect: { request: btc, status: success }
  - expect: { request: exchange, status: success }
`;

describe('scenarios on the in-process ledgers (SVM, BVM, the exchange)', () => {
  it('run beside the pooled EVM nodes, each from genesis, and give the same timeline and records every run (again on the simulator reset)', async () => {
    const file = join(dir, 'every-ledger.yaml');
    writeFileSync(file, EVERY_LEDGER);
    // the second run on the first one's simulator put back to its start (a start of four ledgers costs more than a reset)
    const reused = new ReusedScenarioSimulator();
    onTestFinished(() => reused.stop());
    const first = await runScenario(loadScenarioFile(file), { nodes: pooledNodes(), reuse: { simulator: reused } });
    expect(first.error, first.timeline).toBeUndefined();
    expect(first.mismatches, first.timeline).toEqual([]);
    // account:0 is each chain's own funded account: a base58 key on SVM, a bcrt1q key on BVM, an account index on the exchange
    expect(first.timeline).toMatch(/sol: 25000000 USDC on 792703809 from [1-9A-HJ-NP-Za-km-z]{32,44}: deposit/);
    expect(first.timeline).toMatch(/btc: 1500000 BTC on 8253038 from bcrt1q[a-z0-9]+ to deposit address bcrt1q/);
    expect(first.timeline).toContain('exchange: 20000000 USDC on 3586256 from 2: deposit');
    const second = await runScenario(loadScenarioFile(file), { nodes: pooledNodes(), reuse: { simulator: reused } });
    expect(reused.taken).toEqual({ started: 1, reset: 1 });
    expect(second.timeline).toBe(first.timeline);
    // what the in-process ledgers recorded (hashes, blocks, fees, virtual times) is the same too;
    // the EVM fills' block times are the pooled Anvil's own clock, so only the deposits are compared whole
    const deposits = (records: Record<string, unknown>) => Object.values(records).map((record) => (record as { data: { inTxs: unknown[] } }).data.inTxs);
    expect(deposits(second.records)).toEqual(deposits(first.records));
    expect(deposits(first.records).flat()).toHaveLength(3);
  });

  it('the node pool starts nodes for EVM chains only: an in-process ledger has none to pool', async () => {
    const logDir = join(dir, 'logs');
    const nodes = await startChainNodes({ chainIds: [792703809, 8253038, 3586256], logDir });
    try {
      expect(nodes.chains).toEqual([]);
    } finally {
      await nodes.stop();
    }
  });
});
