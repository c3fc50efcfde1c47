import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hex } from 'viem';
import type { RunningSimulator } from '../../../src/simulator';
import { publicClientFor } from '../../support/bridgeClient';
import { sharedTestSimulator } from '../../support/sharedTestSimulator';
import { sendFrom } from '../../support/swapClient';

// Anvil 1.7.1's evm_revert keeps the fee state of the blocks it drops: a chain snapshot through the
// control plane (and so a world snapshot) puts the next block's base fee back with the chain.

const CHAIN = 1;
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await sharedTestSimulator();
});

afterAll(async () => {
  await sim?.stop();
});

const nextBaseFee = async (): Promise<bigint> => (await publicClientFor(sim, CHAIN).getBlock({ blockTag: 'pending' })).baseFeePerGas!;

/** One plain transfer from the second account: its hash, its effective gas price and its block's base fee. */
async function transfer(): Promise<{ hash: Hex; effectiveGasPrice: bigint; baseFee: bigint }> {
  const hash = await sendFrom(sim, CHAIN, sim.accounts[1]!.privateKey, { to: sim.accounts[2]!.address as Address, data: '0x', value: 1000n });
  const client = publicClientFor(sim, CHAIN);
  const receipt = await client.getTransactionReceipt({ hash });
  const block = await client.getBlock({ blockNumber: receipt.blockNumber });
  return { hash, effectiveGasPrice: receipt.effectiveGasPrice, baseFee: block.baseFeePerGas! };
}

describe('an EVM chain snapshot keeps its next base fee', () => {
  it('after a detour of mined blocks, the next block and a transaction are those without it', async () => {
    const chain = sim.control.chain(CHAIN);
    const start = await chain.snapshot();
    const atSnapshot = await nextBaseFee();
    const straight = await transfer();
    await chain.revert(start);

    const detour = await chain.snapshot();
    await chain.mine(5);
    expect(await nextBaseFee()).not.toBe(atSnapshot); // empty blocks lower it (EIP-1559)
    await chain.revert(detour);

    expect(await nextBaseFee()).toBe(atSnapshot);
    expect(await transfer()).toEqual(straight);
  });

  it('a world revert gives the chain its base fee back too', async () => {
    const id = await sim.snapshot();
    const atSnapshot = await nextBaseFee();
    await sim.control.chain(CHAIN).mine(4);
    expect(await nextBaseFee()).not.toBe(atSnapshot);
    await sim.revert(id);
    expect(await nextBaseFee()).toBe(atSnapshot);
  });
});
