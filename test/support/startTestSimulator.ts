import { pooledChains } from './pooledNodes';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../src/simulator';

/**
 * Starts a simulator on this worker's pooled chains (reset to genesis on attach), on a free
 * port with a fresh temporary database. Tests that need their own chain processes (restart,
 * persistence) call startSimulator directly instead.
 */
export function startTestSimulator(options: StartSimulatorOptions = {}): Promise<RunningSimulator> {
  return startSimulator({
    port: 0,
    env: {},
    log: () => undefined,
    chains: pooledChains(),
    ...options,
  });
}
