import { SimulatorError } from './SimulatorError';

/** Admin-interface errors (not part of the SPEC surface). */
export class SolverRuleNotFoundError extends SimulatorError {
  constructor(ruleId: string) {
    super('SOLVER_RULE_NOT_FOUND', 404, `No solver rule with id ${ruleId}`);
  }
}

/** A control route named a chain this simulator does not run. */
export class UnknownChainError extends SimulatorError {
  constructor(chainId: number, known: number[]) {
    super('UNKNOWN_CHAIN', 404, `chain ${chainId} is not run by this simulator (chains: ${known.join(', ')})`);
  }
}

/** The chain's node refused a control-plane cheat call (a reorg deeper than the chain, an unknown snapshot). */
export class CheatCallRefusedError extends SimulatorError {
  constructor(chainId: number, call: string, reason: string) {
    super('CHEAT_CALL_REFUSED', 400, `chain ${chainId} refused ${call}: ${reason.slice(0, 300)}`);
  }
}

/** A world revert named a snapshot this simulator does not hold (never taken, already used, or dropped by a revert to an earlier one). */
export class WorldSnapshotNotFoundError extends SimulatorError {
  constructor(id: string) {
    super('SNAPSHOT_NOT_FOUND', 404, `no world snapshot ${id}: a snapshot is used up by a revert to it (unless taken with keep: true), and a revert drops every snapshot taken after it`);
  }
}
