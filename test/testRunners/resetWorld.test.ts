import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator';
import { refuseParallelWorkers, resetWorld } from '../../src/testRunners/resetWorld';
import { sharedTestSimulator } from '../support/sharedTestSimulator';

/**
 * What the isolation setup files (`intentsim/vitest/isolate`, `intentsim/jest/isolate`) run, from
 * source: the world reset through the context a test file gets, and the refusal in a second
 * parallel worker. The setup files themselves run from the packed tarball in
 * test/package/installedPackage.test.ts.
 */
describe('refuseParallelWorkers', () => {
  it("passes Vitest's first worker and a run with no worker number", () => {
    expect(() => refuseParallelWorkers('vitest', { VITEST_POOL_ID: '1' })).not.toThrow();
    expect(() => refuseParallelWorkers('jest', {})).not.toThrow();
  });

  it("refuses a second worker and names the runner's way to run files one at a time", () => {
    expect(() => refuseParallelWorkers('vitest', { VITEST_POOL_ID: '2' })).toThrow(/VITEST_POOL_ID=2.*fileParallelism: false/);
    expect(() => refuseParallelWorkers('jest', { JEST_WORKER_ID: '3' })).toThrow(/JEST_WORKER_ID=3.*--runInBand/);
  });
});

describe('resetWorld', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it("puts back an account's balance a test changed, through the context's URL and API key", async () => {
    const chain = sim.chains.find((summary) => summary.vmType === 'evm')!;
    const balance = async () => {
      const body = (await (await fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [sim.accounts[0]!.address, 'latest'] }) })).json()) as { result: string };
      return BigInt(body.result);
    };
    const start = await balance();
    await fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setBalance', params: [sim.accounts[0]!.address, '0x1'] }) });
    expect(await balance()).toBe(1n);
    await resetWorld({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, chains: sim.chains, accounts: sim.accounts });
    expect(await balance()).toBe(start);
  });
});
