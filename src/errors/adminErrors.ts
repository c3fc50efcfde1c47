import { SimulatorError } from './SimulatorError';

/** Admin-interface errors (not part of the SPEC surface). */
export class SolverRuleNotFoundError extends SimulatorError {
  constructor(ruleId: string) {
    super('SOLVER_RULE_NOT_FOUND', 404, `No solver rule with id ${ruleId}`);
  }
}
