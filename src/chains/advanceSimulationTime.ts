import type { VirtualClock } from '../clock/VirtualClock';
import type { ChainAdapter } from './ChainAdapter';

/**
 * Moves simulation time forward by `seconds`: every chain's block time first (the next block is
 * that much later), then the virtual clock, whose due timers (solver delays, webhook retries, the
 * fill inclusion window) fire. The one way the control plane, the admin API and scenarios move time.
 */
export async function advanceSimulationTime(deps: { clock: VirtualClock; chains: Iterable<ChainAdapter> }, seconds: number): Promise<void> {
  for (const chain of deps.chains) await chain.increaseTime(Math.ceil(seconds));
  deps.clock.advance(Math.round(seconds * 1000));
}
