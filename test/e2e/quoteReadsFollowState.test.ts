import { createPublicClient, createTestClient, createWalletClient, http, parseEther, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { nativeBridgeBody, postJson } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await sharedTestSimulator();
});
afterAll(async () => {
  await sim?.stop();
});

const userBalanceOf = async (user: string): Promise<bigint> => {
  const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(user));
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  return BigInt(quote.body.details.userBalance);
};

/** Quotes until `details.userBalance` is `expected` (the watcher sees a block a few ms after it is mined), or fails after many tries. */
async function userBalanceBecomes(user: string, expected: bigint): Promise<bigint> {
  let seen = await userBalanceOf(user);
  for (let tries = 0; seen !== expected && tries < 200; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    seen = await userBalanceOf(user);
  }
  return seen;
}

describe('quote-time reads kept while the chain state stands never outlive a change (SameStateReadCache)', () => {
  it('an equal quote repeats its answer; a transfer sent straight to the node, not through the simulator, shows in the next quotes', async () => {
    const user = sim.accounts[5]!;
    const chain = sim.chains.find((c) => c.id === 1)!;
    const before = await userBalanceOf(user.address);
    expect(await userBalanceOf(user.address)).toBe(before);
    const wallet = createWalletClient({ account: privateKeyToAccount(user.privateKey as Hex), transport: http(chain.rpcUrl) });
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const hash = await wallet.sendTransaction({ chain: null, to: sim.accounts[6]!.address as Hex, value: parseEther('1') });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    const after = before - parseEther('1') - receipt.gasUsed * receipt.effectiveGasPrice;
    expect(await client.getBalance({ address: user.address as Hex })).toBe(after);
    expect(await userBalanceBecomes(user.address, after)).toBe(after);
  });

  it('a balance set straight on the node (a cheat call not made through the simulator) shows once a block is mined', async () => {
    const user = sim.accounts[7]!;
    const before = await userBalanceOf(user.address);
    const chain = sim.chains.find((c) => c.id === 1)!;
    const testClient = createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) });
    await testClient.setBalance({ address: user.address as Hex, value: before + 12345n });
    await testClient.mine({ blocks: 1 });
    expect(await userBalanceBecomes(user.address, before + 12345n)).toBe(before + 12345n);
  });

  it('a balance set through the chain\'s rpcUrl (the simulator\'s front before its own Anvil) shows in the very next quote, no block needed', async () => {
    // one chain of its own (a native bridge from chain 1 to itself reads the same balance): the front is that of an Anvil the simulator started
    const own = await startSimulator({ port: 0, env: {}, log: () => undefined, chains: [{ id: 1 }] });
    try {
      await balanceSetThroughTheFrontShows(own);
    } finally {
      await own.stop();
    }
  });
});

/** A balance set through the front of `own` shows in its next quote: the front forgets the kept reads once such a call is answered. */
async function balanceSetThroughTheFrontShows(own: RunningSimulator): Promise<void> {
  const balanceIn = async (user: string): Promise<bigint> => BigInt((await postJson(`${own.baseUrl}/quote/v2`, nativeBridgeBody(user, { destinationChainId: 1 }))).body.details.userBalance);
  const user = own.accounts[8]!;
  const before = await balanceIn(user.address);
  expect(await balanceIn(user.address)).toBe(before);
  const chain = own.chains.find((c) => c.id === 1)!;
  await createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) }).setBalance({ address: user.address as Hex, value: before + 777n });
  expect(await balanceIn(user.address)).toBe(before + 777n);
}
