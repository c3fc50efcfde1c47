import type { ScenarioStep } from '../scenarioSchema';
import { ScenarioStepError, type ScenarioRunState } from '../scenarioRunState';

/** The snapshots a scenario named, per run (keyed by the run's quotes, which last the whole run): their chain and id. */
const named = new WeakMap<ScenarioRunState['quotes'], Map<string, { chainId: number; id: string }>>();

function snapshotsOf(state: ScenarioRunState): Map<string, { chainId: number; id: string }> {
  const snapshots = named.get(state.quotes) ?? new Map<string, { chainId: number; id: string }>();
  named.set(state.quotes, snapshots);
  return snapshots;
}

/** `snapshot: { chainId, as }`: saves the chain's state under a name (`POST /admin/chains/:chainId/snapshot`). */
export async function snapshotStep(state: ScenarioRunState, spec: Extract<ScenarioStep, { kind: 'snapshot' }>['spec']): Promise<string> {
  const snapshots = snapshotsOf(state);
  if (snapshots.has(spec.as)) throw new ScenarioStepError(`a snapshot is named "${spec.as}" already`);
  const id = await state.sim.control.chain(spec.chainId).snapshot();
  snapshots.set(spec.as, { chainId: spec.chainId, id });
  return `${spec.as} = snapshot ${id} of ${spec.chainId}`;
}

/**
 * `revert: { snapshot }`: the chain comes back to a named snapshot (`…/revert`), which is used up;
 * deposits in what it undid are reorged out (their requests follow, as after a reorg).
 */
export async function revertStep(state: ScenarioRunState, spec: Extract<ScenarioStep, { kind: 'revert' }>['spec']): Promise<string> {
  const snapshots = snapshotsOf(state);
  const snapshot = snapshots.get(spec.snapshot);
  if (!snapshot) throw new ScenarioStepError(`no snapshot named "${spec.snapshot}" (or it was reverted to already)`);
  const chain = state.sim.control.chain(snapshot.chainId);
  await chain.revert(snapshot.id);
  await chain.syncNow();
  snapshots.delete(spec.snapshot);
  return `${snapshot.chainId} back at ${spec.snapshot} (${snapshot.id})`;
}
