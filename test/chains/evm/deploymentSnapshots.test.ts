import { describe, expect, it } from 'vitest';
import { english, generateMnemonic } from 'viem/accounts';
import { callJsonRpc } from '../../../src/chains/evm/callJsonRpc';
import { startTestSimulator } from '../../support/startTestSimulator';
import { pooledChains } from '../../support/pooledNodes';
import { quoteAndDepositNative } from '../../support/quoteAndDepositNative';
import { waitForSettledStatus } from '../../support/bridgeClient';

/** A pooled node reset on attach gets the deployment it had before with one anvil_loadState, not ~27 transactions again. */
describe('deployment kept per reset node (src/chains/evm/deploymentSnapshots.ts)', () => {
  const chain = () => pooledChains([8453])[0]!;
  const start = async (extra: { mnemonic?: string } = {}) => {
    const lines: string[] = [];
    const sim = await startTestSimulator({ chains: [chain()], log: (line: string) => lines.push(line), ...extra });
    return { sim, loaded: lines.some((line) => line.includes('contracts loaded from this node')) };
  };
  const deploymentBlocks = async (rpcUrl: string) => {
    const head = Number(await callJsonRpc(rpcUrl, 'eth_blockNumber', []));
    const blocks = await Promise.all(Array.from({ length: head }, (_, i) => callJsonRpc(rpcUrl, 'eth_getBlockByNumber', [`0x${(i + 1).toString(16)}`, false]) as Promise<{ hash: string; transactions: string[] }>));
    return blocks.map((block) => ({ hash: block.hash, transactions: block.transactions }));
  };

  // three starts on one node, in order: the first accounts', other accounts', the first accounts' again
  let deployed: Awaited<ReturnType<typeof deploymentBlocks>>;
  let firstChain: unknown;

  it('deploys again for other accounts on the same node (the kept deployment is keyed by them)', async () => {
    const first = await start();
    deployed = await deploymentBlocks(chain().rpcUrl);
    firstChain = first.sim.chains.find((c) => c.id === 8453);
    await first.sim.stop();

    const other = await start({ mnemonic: generateMnemonic(english) });
    try {
      expect(other.loaded).toBe(false);
    } finally {
      await other.sim.stop();
    }
  });

  it('loads the same blocks, contracts and gas, on the wall clock as a fresh deployment is, and bridges on them (the first accounts\' deployment still kept after the other\'s)', async () => {
    const second = await start();
    try {
      expect(second.loaded).toBe(true);
      expect(await deploymentBlocks(chain().rpcUrl)).toEqual(deployed);
      expect(deployed.length).toBeGreaterThan(20);
      // the clock offset a load leaves is taken back: the next block is on the wall clock, as on a fresh chain
      expect(Number(await callJsonRpc(chain().rpcUrl, 'evm_increaseTime', [0]))).toBe(0);
      expect(second.sim.chains.find((c) => c.id === 8453)).toEqual(firstChain);

      const { requestId } = await quoteAndDepositNative(second.sim, 1, { origin: 8453, destination: 8453 });
      expect((await waitForSettledStatus(second.sim.baseUrl, requestId)).status).toBe('success');
    } finally {
      await second.sim.stop();
    }
  });
});
