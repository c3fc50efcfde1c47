import type { ScenarioStep } from '../scenarioSchema';
import type { ScenarioRunState } from '../scenarioRunState';

/**
 * `dropTransactions: { chainId, target }`: the chain's RPC answers a transaction of `target`
 * (`fill`, `deposit`, `all`) with its signature and never mines it; `target: null` stops it
 * (the admin fault `drop-transactions`, docs/control-plane.md).
 */
export function dropTransactionsStep(state: ScenarioRunState, spec: Extract<ScenarioStep, { kind: 'dropTransactions' }>['spec']): string {
  state.sim.control.chain(spec.chainId).transactionFaults.dropTransactions(spec.target);
  return spec.target === null ? `no transaction dropped on ${spec.chainId}` : `${spec.target === 'all' ? 'every transaction' : `${spec.target}s`} dropped on ${spec.chainId}`;
}
