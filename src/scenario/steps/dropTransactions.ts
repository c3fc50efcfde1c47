import type { ScenarioStep } from '../scenarioSchema';
import { ScenarioStepError, type ScenarioRunState } from '../scenarioRunState';

/**
 * `dropTransactions: { chainId, target }`: the chain's RPC answers a transaction of `target`
 * (`fill`, `deposit`, `all`) with its signature and never mines it; `target: null` stops it
 * (the admin fault `drop-transactions`, docs/control-plane.md).
 */
export function dropTransactionsStep(state: ScenarioRunState, spec: Extract<ScenarioStep, { kind: 'dropTransactions' }>['spec']): string {
  const faults = state.sim.control.chain(spec.chainId).transactionFaults;
  if (!faults) throw new ScenarioStepError(`chain ${spec.chainId} does not simulate dropped transactions (the embedded Solana ledger does)`);
  faults.dropTransactions(spec.target);
  return spec.target === null ? `no transaction dropped on ${spec.chainId}` : `${spec.target === 'all' ? 'every transaction' : `${spec.target}s`} dropped on ${spec.chainId}`;
}
