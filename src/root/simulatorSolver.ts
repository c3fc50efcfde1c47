import type { VirtualClock } from '../clock/VirtualClock';
import type { SimulatorConfig } from '../config/simulatorConfig';
import type { RequestLifecycle } from '../lifecycle/transitionRequest';
import type { SeededRng } from '../rng/SeededRng';
import { Solver } from '../solver/Solver';
import { SolverRuleStore } from '../solver/SolverRuleStore';
import type { SimulatorChains } from './simulatorChains';
import type { SimulatorStores } from './simulatorStores';

/** The solver with the configured policy; it hears the chains from `attach()` and acts from `activate()`. */
export function createSimulatorSolver(
  config: SimulatorConfig,
  deps: { chains: SimulatorChains; lifecycle: RequestLifecycle; stores: SimulatorStores; rng: SeededRng; clock: VirtualClock; log: (message: string, error?: unknown) => void },
): Solver {
  const solver = new Solver({
    chains: deps.chains.byId,
    lifecycle: deps.lifecycle,
    chainIndex: deps.stores.chainIndex,
    rules: new SolverRuleStore(deps.rng),
    clock: deps.clock,
    quoteTtlSeconds: config.quoteTtlSeconds,
    fillInclusionWindowSeconds: config.fillInclusionWindowSeconds,
    log: deps.log,
  });
  applyConfiguredPolicy(config, solver);
  return solver;
}

/** `--solver-policy hold`: the solver starts (and resets to) holding every request. */
export function applyConfiguredPolicy(config: SimulatorConfig, solver: Pick<Solver, 'setPolicy'>): void {
  if (config.solverPolicy === 'hold') solver.setPolicy('hold');
}
