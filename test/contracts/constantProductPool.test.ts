import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { constantProductPoolArtifact } from '../../fixtures/contracts/artifacts.generated';
import { POOL_FEE_BPS, poolSeedReserves } from '../../fixtures/pools';
import { getAmountIn, getAmountOut } from '../../src/domain/quote/constantProduct';
import type { RunningSimulator } from '../../src/simulator';
import { publicClientFor } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { evmChainOf } from '../support/evmChainOf';

/** The TypeScript pool math the quotes use is the deployed contract's math, unit for unit. */
describe('ConstantProductPool on Anvil vs src/domain/quote/constantProduct.ts', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it('is deployed on every chain at the same address, seeded at the price fixture', async () => {
    const pools = sim.chains.map((chain) => evmChainOf(sim, chain.id).contractAddresses.pool);
    expect(new Set(pools).size).toBe(1);
    for (const chain of sim.chains) {
      const reserves = await publicClientFor(sim, chain.id).readContract({ address: pools[0]!, abi: constantProductPoolArtifact.abi, functionName: 'getReserves' });
      const seed = poolSeedReserves('ETH', 'USDC', 6);
      expect(reserves).toEqual([seed.wrappedNative, seed.stablecoin]);
    }
  });

  it('getAmountOut and getAmountIn agree with the contract for random amounts in both directions', async () => {
    const chainId = sim.chains[0]!.id;
    const { pool, wrappedNative, stablecoin } = evmChainOf(sim, chainId).contractAddresses;
    const client = publicClientFor(sim, chainId);
    const [reserve0, reserve1] = await client.readContract({ address: pool, abi: constantProductPoolArtifact.abi, functionName: 'getReserves' });
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.bigInt({ min: 1n, max: 10n ** 24n }), async (wethIn, amount) => {
        const tokenIn = wethIn ? wrappedNative : stablecoin;
        const [reserveIn, reserveOut] = wethIn ? [reserve0, reserve1] : [reserve1, reserve0];
        const onChainOut = await client.readContract({ address: pool, abi: constantProductPoolArtifact.abi, functionName: 'getAmountOut', args: [tokenIn, amount] });
        expect(onChainOut).toBe(getAmountOut(amount, reserveIn, reserveOut, POOL_FEE_BPS));
        const wanted = amount % reserveOut;
        const expectedIn = getAmountIn(wanted, reserveIn, reserveOut, POOL_FEE_BPS);
        if (wanted === 0n || expectedIn === null) return;
        const onChainIn = await client.readContract({ address: pool, abi: constantProductPoolArtifact.abi, functionName: 'getAmountIn', args: [tokenIn, wanted] });
        expect(onChainIn).toBe(expectedIn);
      }),
      { numRuns: 40 },
    );
  });
});
