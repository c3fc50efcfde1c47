import type { StartSimulatorOptions } from '../simulator';
import type { Scenario } from './scenarioSchema';

/**
 * A scenario's `fork:` section as the simulator's own fork settings (`--fork CHAIN=URL`,
 * `--fork-block CHAIN=N`): one config path for a forked start, whoever asks for it.
 */
export function forkOptionsOf(scenario: Pick<Scenario, 'fork'>): Pick<StartSimulatorOptions, 'fork' | 'forkBlock'> {
  const forks = Object.entries(scenario.fork ?? {});
  if (forks.length === 0) return {};
  return {
    fork: Object.fromEntries(forks.map(([id, fork]) => [id, fork.url])),
    forkBlock: Object.fromEntries(forks.flatMap(([id, fork]) => (fork.block === undefined ? [] : [[id, fork.block]]))),
  };
}

/** The chains a scenario runs on a pooled node: its chains but those it forks (a fork runs its own node). */
export function pooledChainsOf(scenario: Pick<Scenario, 'fork'>, chainIds: readonly number[]): number[] {
  return chainIds.filter((id) => scenario.fork?.[String(id)] === undefined);
}
