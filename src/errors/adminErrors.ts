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
