import { SolverRuleInputSchema, ruleMatches, type SolverAction, type SolverRule, type SolverRuleInput, type SolverRuleSubject } from '../domain/fill/solverRules';
import type { SeededRng } from '../rng/SeededRng';

const FILL: SolverAction = { kind: 'fill' };

/**
 * The solver's behaviour as rule data (like the quote-time RPC faults), applied at one hook: the
 * point where the solver settles an indexed deposit. The newest matching rule wins; a rule with a
 * probability draws from the simulator's seeded RNG each time it matches; `times` counts down.
 */
export class SolverRuleStore {
  private rules: SolverRule[] = [];
  private nextId = 1;

  constructor(private readonly rng: SeededRng) {}

  /** Validates (zod) and adds a rule; returns it with its id. */
  add(input: SolverRuleInput): SolverRule {
    const parsed = SolverRuleInputSchema.parse(input);
    const rule: SolverRule = {
      id: `rule-${this.nextId++}`,
      match: parsed.match,
      action: parsed.action,
      ...(parsed.probability === undefined ? {} : { probability: parsed.probability }),
      ...(parsed.times === undefined ? {} : { remaining: parsed.times }),
    };
    this.rules.push(rule);
    return rule;
  }

  list(): SolverRule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  /** Removes one rule; false when there is none with that id. */
  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((rule) => rule.id !== id);
    return this.rules.length !== before;
  }

  clear(): void {
    this.rules = [];
  }

  /** Forgets every rule and restarts the ids. */
  reset(): void {
    this.rules = [];
    this.nextId = 1;
  }

  /** What to do with this request now: the newest rule that matches and applies, else `fallback` (fill). */
  decide(subject: SolverRuleSubject, skip: (action: SolverAction) => boolean = () => false, fallback: SolverAction = FILL): SolverAction {
    for (let index = this.rules.length - 1; index >= 0; index--) {
      const rule = this.rules[index]!;
      if (skip(rule.action) || !ruleMatches(rule.match, subject)) continue;
      if (rule.probability !== undefined && !this.rng.chance(rule.probability)) continue;
      if (rule.remaining !== undefined) {
        rule.remaining -= 1;
        if (rule.remaining === 0) this.rules.splice(index, 1);
      }
      return rule.action;
    }
    return fallback;
  }
}
