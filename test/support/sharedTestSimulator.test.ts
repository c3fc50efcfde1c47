import { afterAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator';
import { publicClientFor } from './bridgeClient';
import { quoteAndDepositNative } from './quoteAndDepositNative';
import { sharedTestSimulator } from './sharedTestSimulator';

/**
 * The worker's shared simulator (sharedTestSimulator.ts): one file at a time holds it, and its
 * `stop()` gives back the world the start left, mining mode included, without stopping it.
 */
describe('sharedTestSimulator', () => {
  let sim: RunningSimulator | undefined;
  afterAll(async () => {
    await sim?.stop();
  });

  it('is refused to a second taker while held, and given back by stop() to the start’s world on the same simulator', async () => {
    sim = await sharedTestSimulator();
    await expect(sharedTestSimulator()).rejects.toThrow(/still held by .*sharedTestSimulator\.test\.ts/);

    const origin = publicClientFor(sim, 1);
    const userBalance = () => origin.getBalance({ address: sim!.accounts[0]!.address as `0x${string}` });
    const balanceAtStart = await userBalance();
    const { requestId } = await quoteAndDepositNative(sim, 0, { origin: 1, destination: 8453 });
    expect(sim.control.requests.get(requestId)).toBeDefined();
    expect(await userBalance()).toBeLessThan(balanceAtStart);
    sim.control.solver.addRule({ action: { kind: 'never' } });
    await sim.control.chain(1).setAutomine(false);
    const heightBefore = await origin.getBlockNumber({ cacheTime: 0 });
    const { baseUrl, dbPath } = sim;

    await sim.stop();
    sim = await sharedTestSimulator();

    expect([sim.baseUrl, sim.dbPath]).toEqual([baseUrl, dbPath]);
    expect(sim.control.requests.get(requestId)).toBeUndefined();
    expect(sim.control.solver.listRules()).toEqual([]);
    expect(await origin.getBlockNumber({ cacheTime: 0 })).toBeLessThan(heightBefore);
    expect(await userBalance()).toBe(balanceAtStart);
    expect(await publicClientFor(sim, 1).request({ method: 'anvil_getAutomine' as never })).toBe(true);
  });
});
