import { chainKindFacts } from '../chains/chainKinds';
import type { RunningSimulator } from '../simulator';

/**
 * The chains whose transactions wait in the pool until a `mine` step: those a step turned automine
 * off on, and those whose kind mines only on request (Bitcoin-style). Settling counts the solver's
 * receipt held there as idle, and a step that waits names them.
 */
export function chainsHoldingTransactions(sim: RunningSimulator, automineOff: ReadonlySet<number>): number[] {
  const minesOnRequest = sim.chains.filter((chain) => chainKindFacts(sim.control.chain(chain.id).vmType).minesOnRequest).map((chain) => chain.id);
  return [...new Set([...automineOff, ...minesOnRequest])].sort((a, b) => a - b);
}
