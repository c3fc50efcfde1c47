import type { ScenarioStep } from '../scenarioSchema';
import { ScenarioStepError, type ScenarioRunState } from '../scenarioRunState';

/**
 * `snapshot`: saves a chain's state under a name (`POST /admin/chains/:chainId/snapshot`), or
 * without `chainId` the whole world's (`POST /admin/snapshot`, docs/control-plane.md "World snapshots").
 */
export async function snapshotStep(state: ScenarioRunState, spec: Extract<ScenarioStep, { kind: 'snapshot' }>['spec']): Promise<string> {
  if (state.snapshots.has(spec.as)) throw new ScenarioStepError(`a snapshot is named "${spec.as}" already`);
  if (spec.chainId === undefined) {
    const keep = spec.keep === true;
    const id = await state.sim.control.world.snapshot({ keep });
    state.snapshots.set(spec.as, { chainId: undefined, id, keep });
    return `${spec.as} = world snapshot ${id}${keep ? ' (kept)' : ''}`;
  }
  const id = await state.sim.control.chain(spec.chainId).snapshot();
  state.snapshots.set(spec.as, { chainId: spec.chainId, id, keep: false });
  return `${spec.as} = snapshot ${id} of ${spec.chainId}`;
}

/**
 * `revert`: returns the chain to a named snapshot (`…/revert`), which is used up (as Anvil's), then
 * indexes it: deposits in what it undid are reorged out (their requests follow, as after a reorg).
 * A world snapshot brings the whole world back; the world snapshots taken after it are gone, and
 * it is used up unless kept.
 */
export async function revertStep(state: ScenarioRunState, spec: Extract<ScenarioStep, { kind: 'revert' }>['spec']): Promise<string> {
  const snapshot = state.snapshots.get(spec.snapshot);
  if (!snapshot) throw new ScenarioStepError(`no snapshot named "${spec.snapshot}" (take one with snapshot: { as } or { chainId, as }; a revert uses it up unless kept)`);
  if (snapshot.chainId === undefined) {
    await state.sim.control.world.revert(snapshot.id);
    const taken = [...state.snapshots.entries()];
    const index = taken.findIndex(([name]) => name === spec.snapshot);
    // like the world's own: the later world snapshots are dropped
    for (const [name, later] of taken.slice(index + 1)) if (later.chainId === undefined) state.snapshots.delete(name);
    if (!snapshot.keep) state.snapshots.delete(spec.snapshot);
    forgetRevertedStatuses(state);
    return `the world back to ${spec.snapshot} (snapshot ${snapshot.id})`;
  }
  const chain = state.sim.control.chain(snapshot.chainId);
  await chain.revert(snapshot.id);
  await chain.syncNow();
  state.snapshots.delete(spec.snapshot);
  return `${snapshot.chainId} back to ${spec.snapshot} (snapshot ${snapshot.id})`;
}

/** The status changes each named request made after the world's snapshot are gone with it (its events in the store say which stay). */
function forgetRevertedStatuses(state: ScenarioRunState): void {
  for (const [alias, quote] of state.quotes) {
    const changes = state.statuses.get(alias);
    if (!changes) continue;
    const lastSeq = state.sim.control.requests.lastEventSeq(quote.requestId) ?? -1;
    state.statuses.set(alias, changes.filter((change) => change.seq <= lastSeq));
  }
}
