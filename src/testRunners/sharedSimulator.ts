import type { SimulatorAccountSummary, SimulatorChainSummary, StartSimulatorOptions } from '../index';

/**
 * What a test file needs of the one simulator a test run shares: where its API is, its chains
 * (RPC URLs and, for non-EVM chains, their funded accounts), the funded EVM accounts and the
 * default API key. Plain JSON, so it crosses into test workers (Vitest's `provide`, Jest's
 * environment).
 */
export interface IntentsimContext {
  baseUrl: string;
  apiKey: string;
  chains: SimulatorChainSummary[];
  accounts: SimulatorAccountSummary[];
}

export interface SharedSimulator {
  context: IntentsimContext;
  stop(): Promise<void>;
}

/**
 * Starts the simulator a whole test run shares. Options come from the factory, then the
 * simulator's `INTENTSIM_*` environment (`INTENTSIM_SEED`, `INTENTSIM_DB`, …); the API listens
 * on a free port unless `port` is given here.
 */
export async function startSharedSimulator(options: StartSimulatorOptions = {}): Promise<SharedSimulator> {
  // the simulator's code loads here, in the process that starts it (the global setup): a test
  // worker that only reads the context (`intentsim/jest`, `intentsim/jest/isolate`) loads none of it
  const { startSimulator } = await import('../index');
  const simulator = await startSimulator({ port: 0, ...options });
  const { baseUrl, apiKey, chains, accounts } = simulator;
  return { context: { baseUrl, apiKey, chains, accounts }, stop: () => simulator.stop() };
}
