import type { VirtualClock } from '../clock/VirtualClock';
import type { SimulatorConfig } from '../config/simulatorConfig';
import type { SeededRng } from '../rng/SeededRng';
import type { Solver } from '../solver/Solver';
import type { RequestEvents } from './requestEvents';
import type { SimulatorControl } from './runningSimulator';
import type { SimulatorChains } from './simulatorChains';
import { applyConfiguredPolicy } from './simulatorSolver';
import type { SimulatorStores } from './simulatorStores';
import type { WorldSnapshots } from './worldSnapshots';

/** The control plane a test, a scenario or the admin API holds: the clock, the RNG, the solver's rules, each chain's cheats. */
export function buildSimulatorControl(
  config: SimulatorConfig,
  parts: { clock: VirtualClock; rng: SeededRng; stores: SimulatorStores; requestEvents: RequestEvents; chains: SimulatorChains; solver: Solver; world: WorldSnapshots; solverAddress: string },
): SimulatorControl {
  const { clock, rng, stores, requestEvents, chains, solver } = parts;
  return {
    clock,
    rng,
    events: requestEvents.events,
    requests: stores.requests,
    apiKeys: stores.apiKeys,
    webhooks: { store: stores.webhooks, idle: () => requestEvents.webhookDispatcher.idle() },
    solver,
    solverAddress: parts.solverAddress,
    world: { snapshot: (options) => parts.world.snapshot(options), revert: (id) => parts.world.revert(id), reset: () => parts.world.reset() },
    rpcFaults: chains.rpcFaults,
    advanceTime: (seconds) => chains.control.advanceTime(seconds),
    reset: () => {
      solver.reset();
      applyConfiguredPolicy(config, solver);
      chains.rpcFaults.reset();
      rng.reset();
    },
    chain: (chainId) => {
      const chain = chains.control.find(chainId);
      if (!chain) throw new Error(`no chain ${chainId} in this simulator (chains: ${[...chains.byId.keys()].join(', ')})`);
      return chain;
    },
  };
}
