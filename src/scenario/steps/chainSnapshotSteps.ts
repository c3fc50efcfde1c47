import type { ScenarioStep } from '../scenarioSchema';
import { ScenarioStepError, type ScenarioRunState } from '../scenarioRunState';

/** `snapshot`: saves a chain's state under a name (`POST /admin/chains/:chainId/snapshot`). */
export async function snapshotStep(state: ScenarioRunState, spec: Extract<ScenarioStep, { kind: 'snapshot' }>['spec']): Promise<string> {
  if (state.snapshots.has(spec.as)) throw new ScenarioStepError(`a snapshot is named "${spec.as}" already`);
  const id = await state.sim.control.chain(spec.chainId).snapshot();
  state.snapshots.set(spec.as, { chainId: spec.chainId, id });
  return `${spec.as} = snapshot ${id} of ${spec.chainId}`;
}

/**
 * `revert`: returns the chain to a named snapshot (`…/revert`), which is used up (as Anvil's), then
 * indexes it: deposits in what it undid are reorged out (their requests follow, as after a reorg).
 */
export async function revertStep(state: ScenarioRunState, spec: Extract<ScenarioStep, { kind: 'revert' }>['spec']): Promise<string> {
  const snapshot = state.snapshots.get(spec.snapshot);
  if (!snapshot) throw new ScenarioStepError(`no snapshot named "${spec.snapshot}" (take one with snapshot: { chainId, as }; a revert uses it up)`);
  const chain = state.sim.control.chain(snapshot.chainId);
  await chain.revert(snapshot.id);
  await chain.syncNow();
  state.snapshots.delete(spec.snapshot);
  return `${snapshot.chainId} back to ${spec.snapshot} (snapshot ${snapshot.id})`;
}
