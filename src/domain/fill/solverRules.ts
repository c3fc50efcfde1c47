import { z } from 'zod';
import { REQUEST_TYPES, type RequestType } from '../request/requestRecord';
import { RequestIdSchema } from '../request/requestId';
import { FAIL_REASONS, REFUND_FAIL_REASONS } from '../request/requestStatus';

const ChainIdSchema = z.number().int().positive().max(2 ** 53 - 1);
const FailReasonSchema = z.enum(FAIL_REASONS).exclude(['N/A']);

/**
 * What the solver does with a request whose deposit is indexed (DESIGN: "its behaviour per request
 * is a policy"). `fill` is the default; the others inject faults that travel the same path:
 * - `delay`: wait `seconds` on the virtual clock, then fill;
 * - `never`: leave it in `pending` (until the rule goes away);
 * - `fail`: `failure` with `failReason`, then refund the deposit (unless a scripted `refundFailReason` says the refund cannot be made);
 * - `refund`: refund the deposit at once (`failReason` recorded, default MANUAL_ADMIN_REFUND);
 * - `dropBroadcast`: sign the fill and report it `submitted`, but never send it to the chain (it is
 *   re-broadcast with higher fees within the fill inclusion window, then TRANSACTION_NOT_INCLUDED);
 * - `refuseBroadcast`: send the fill so that the node refuses it (TRANSACTION_SUBMISSION_FAILED);
 * - `drain`: act as if the solver's balance were empty: SOLVER_BALANCE_TOO_LOW, then refund.
 *
 * Two kinds apply at the gasless relayer instead (SPEC §1.6, §7.2), when it submits a request's
 * `/execute` call or signed deposit (the request is `depositing`), and never at the deposit:
 * - `refuseRelay`: the node refuses the relayer's broadcast (TRANSACTION_SUBMISSION_FAILED);
 * - `dropRelay`: the relayer signs but never sends (TRANSACTION_NOT_INCLUDED after the inclusion window).
 */
export const SolverActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fill') }).strict(),
  z.object({ kind: z.literal('delay'), seconds: z.number().positive().max(365 * 24 * 3600) }).strict(),
  z.object({ kind: z.literal('never') }).strict(),
  z
    .object({
      kind: z.literal('fail'),
      failReason: FailReasonSchema,
      /** The refund cannot be made either, for this §7.4 reason: nothing is sent back and the request stays `failure`. */
      refundFailReason: z.enum(REFUND_FAIL_REASONS).exclude(['N/A']).optional(),
    })
    .strict(),
  z.object({ kind: z.literal('refund'), failReason: FailReasonSchema.optional() }).strict(),
  z.object({ kind: z.literal('dropBroadcast') }).strict(),
  z.object({ kind: z.literal('refuseBroadcast') }).strict(),
  z.object({ kind: z.literal('drain') }).strict(),
  z.object({ kind: z.literal('refuseRelay') }).strict(),
  z.object({ kind: z.literal('dropRelay') }).strict(),
]);
export type SolverAction = z.infer<typeof SolverActionSchema>;
export const SOLVER_ACTION_KINDS = SolverActionSchema.options.map((option) => option.shape.kind.value);

/** The actions that apply when the gasless relayer submits a request's call, not when its deposit is settled. */
export function isRelayAction(action: SolverAction): action is Extract<SolverAction, { kind: 'refuseRelay' | 'dropRelay' }> {
  return action.kind === 'refuseRelay' || action.kind === 'dropRelay';
}

/** Which requests a rule applies to: every condition given must hold; none given = all requests. */
export const SolverRuleMatchSchema = z
  .object({
    requestId: RequestIdSchema.optional(),
    originChainId: ChainIdSchema.optional(),
    destinationChainId: ChainIdSchema.optional(),
    requestType: z.enum(REQUEST_TYPES).optional(),
  })
  .strict();
export type SolverRuleMatch = z.infer<typeof SolverRuleMatchSchema>;

export const SolverRuleInputSchema = z
  .object({
    match: SolverRuleMatchSchema.default({}),
    action: SolverActionSchema,
    /** Applies with this probability (0..1), drawn from the simulator's seeded RNG; default 1. */
    probability: z.number().min(0).max(1).optional(),
    /** Applies this many times, then is removed; default: until removed. */
    times: z.number().int().positive().max(1_000_000).optional(),
  })
  .strict();
export type SolverRuleInput = z.input<typeof SolverRuleInputSchema>;

export interface SolverRule {
  id: string;
  match: SolverRuleMatch;
  action: SolverAction;
  probability?: number;
  /** Applications left (absent: unlimited). */
  remaining?: number;
}

/** The facts a rule is matched against. */
export interface SolverRuleSubject {
  id: string;
  originChainId: number;
  destinationChainId: number;
  requestType: RequestType;
}

export function ruleMatches(match: SolverRuleMatch, subject: SolverRuleSubject): boolean {
  return (
    (match.requestId === undefined || match.requestId.toLowerCase() === subject.id.toLowerCase()) &&
    (match.originChainId === undefined || match.originChainId === subject.originChainId) &&
    (match.destinationChainId === undefined || match.destinationChainId === subject.destinationChainId) &&
    (match.requestType === undefined || match.requestType === subject.requestType)
  );
}

/** The failReason a fault action records (SPEC §7.3). */
export function failReasonOfAction(action: Extract<SolverAction, { kind: 'fail' | 'refund' | 'drain' }>) {
  if (action.kind === 'drain') return 'SOLVER_BALANCE_TOO_LOW' as const;
  return action.failReason ?? ('MANUAL_ADMIN_REFUND' as const);
}

/**
 * The service's own test hook (issue 14 part 6): a quote whose `referrer` is this value is refunded
 * after its deposit instead of filled, as the service documents for integrators' tests.
 */
export const FORCE_REFUND_REFERRER = 'debug-force-refund';

/**
 * What the solver does with a request when no rule matches it: fill, or refund for a request
 * quoted with the force-refund referrer (a deliberate refund: MANUAL_ADMIN_REFUND).
 */
export function defaultActionFor(referrer: string | null): SolverAction {
  return referrer === FORCE_REFUND_REFERRER ? { kind: 'refund', failReason: 'MANUAL_ADMIN_REFUND' } : { kind: 'fill' };
}
