import { pooledChains } from './pooledNodes';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../src/simulator';

/**
 * Starts a simulator on this worker's pooled chains (reset to genesis on attach), on a free
 * port with a fresh temporary database. Tests that need their own chain processes (restart,
 * persistence) call startSimulator directly instead. With `INTENTSIM_TEST_OWN_CHAINS=1` it starts
 * its own Anvil processes instead, behind the simulator's RPC front (to run a suite through the
 * URLs a user of `intentsim start` gets). A file that needs only the defaults (no options) takes
 * the worker's shared simulator instead (sharedTestSimulator.ts).
 */
export function startTestSimulator(options: StartSimulatorOptions = {}): Promise<RunningSimulator> {
  return startSimulator({ ...testSimulatorOptions(pooledChains()), ...options });
}

/** What every test simulator starts with: a free port, no environment, no log, the given pooled chains (or its own with `INTENTSIM_TEST_OWN_CHAINS=1`). */
export function testSimulatorOptions(chains: StartSimulatorOptions['chains']): StartSimulatorOptions {
  return {
    port: 0,
    env: {},
    log: () => undefined,
    ...(process.env.INTENTSIM_TEST_OWN_CHAINS === '1' ? { chains: [{ id: 1 }, { id: 8453 }, { id: 42161 }] } : { chains }),
  };
}

/**
 * For a simulator the conformance suite runs against: it lists requests as fast as it goes. SPEC
 * §8's 20 per second is proven in test/api/requestListingRoutes.test.ts, and the suite waiting out
 * its 429s in test/api/openapiTraffic.test.ts and test/conformance/listingRateWaits.test.ts.
 */
export const LISTING_UNTHROTTLED = { listingRatePerSecond: 1000 } as const;
