import { skipCheck, type CheckContext } from './check';
import { bridgeRouteOf } from './bridgeRoute';
import { addSolverRule, removeSolverRule } from './controlPlane';
import { driveBridge, type BridgeRun } from './driveBridge';
import { sharedRun } from './sharedRuns';

/** A native bridge paid from the funded account and followed until it settles: the run the §3, §2.2–§2.4 and §4.2 lifecycle checks judge. */
export function paidBridgeRun({ http, target }: CheckContext): Promise<BridgeRun> {
  return sharedRun(target, 'lifecycle.paid-bridge', async () =>
    driveBridge(http, await bridgeRouteOf(target), { withApiKey: Boolean(target.apiKey), settlesAt: ['success', 'failure', 'refund'] }),
  );
}

/** The failure the control plane scripts for the §7.3 / §7.4 runs (a §7.3 value with no local cause). */
export const SCRIPTED_FAIL_REASON = 'SOLVER_CAPACITY_EXCEEDED';
/** The §7.4 reason the control plane scripts for a refund that is not made. */
export const SCRIPTED_REFUND_FAIL_REASON = 'REFUND_RECIPIENT_IS_VASP';

/**
 * A bridge whose fill the target's solver is told to fail (`POST /admin/solver/rules`):
 * `refunded` fails it and refunds the deposit (→ refund); `refund-not-made` fails it and the refund
 * is not made either (→ failure with a refundFailReason). Skips without a control plane.
 */
export function scriptedFailureRun(context: CheckContext, outcome: 'refunded' | 'refund-not-made'): Promise<BridgeRun> {
  const { http, target } = context;
  return sharedRun(target, `lifecycle.scripted-failure.${outcome}`, async () => {
    if (!(await target.hasControlPlane())) skipCheck('a failure on demand needs the simulator control plane (POST /admin/solver/rules); this target has none');
    const route = await bridgeRouteOf(target);
    const ruleIds: string[] = [];
    try {
      return await driveBridge(http, route, {
        withApiKey: Boolean(target.apiKey),
        settlesAt: outcome === 'refunded' ? ['refund'] : ['failure', 'refund'],
        beforePaying: async (requestId) => {
          const action = { kind: 'fail', failReason: SCRIPTED_FAIL_REASON, ...(outcome === 'refund-not-made' ? { refundFailReason: SCRIPTED_REFUND_FAIL_REASON } : {}) };
          ruleIds.push(await addSolverRule(http, { match: { requestId }, action, times: 1 }));
        },
      });
    } finally {
      for (const id of ruleIds) await removeSolverRule(http, id);
    }
  });
}
