import type { RequestStatus } from './requestStatus';

/**
 * SPEC §3: the request state machine. The SPEC shows the states and one row of the table
 * (BVM mempool deposit → pending); the rest is this simulator's reading of the states' meanings,
 * listed in docs/divergences.md:
 *
 * - waiting → depositing: the deposit was confirmed through the gasless `/execute` path.
 * - waiting|depositing → pending: the deposit was indexed on the origin chain.
 * - depositing → success: a gasless raw call that is a request of its own (`/execute` without
 *   requestId, a `Call` with no deposit to fill) landed; its relayed transaction was the execution.
 * - pending → submitted: the fill transaction was broadcast on the destination chain.
 * - submitted → success: the fill was included and succeeded.
 * - submitted → pending: the chain never saw the broadcast fill; it will be sent again (higher fees).
 * - any non-final → failure: the fill failed or the deposit cannot be filled.
 * - any non-final, failure → refund: the request was refunded on the origin chain.
 * - success → failure: the deposit was reorged out after the fill (SPEC §3 related rules:
 *   "the top-level status may flip to failure").
 */
export const TRANSITIONS: Readonly<Record<RequestStatus, readonly RequestStatus[]>> = {
  waiting: ['depositing', 'pending', 'failure', 'refund'],
  depositing: ['pending', 'success', 'failure', 'refund'],
  pending: ['submitted', 'failure', 'refund'],
  submitted: ['success', 'pending', 'failure', 'refund'],
  success: ['failure'],
  failure: ['refund'],
  refund: [],
};

/**
 * Transitions of the table that no code path of the simulator takes yet, each with why. The
 * coverage doc shows them as "not reached yet"; a test that reaches one removes it from here.
 */
export const UNREACHED_TRANSITIONS: Readonly<Partial<Record<`${RequestStatus}->${RequestStatus}`, string>>> = {
  'depositing->refund': 'a relayed call that fails leaves no deposit to refund: depositing → failure; a deposit it made is pending first',
  'submitted->refund': 'the solver refunds a submitted fill only after it fails (submitted → failure → refund)',
  'waiting->failure': 'a waiting request has no deposit to fail on; quote expiry is not simulated yet',
  'waiting->refund': 'a waiting request has no deposit to refund',
};

export function canTransition(from: RequestStatus, to: RequestStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Statuses from which nothing more happens unless a reorg or an operator steps in. */
export function isSettled(status: RequestStatus): boolean {
  return status === 'success' || status === 'failure' || status === 'refund';
}
