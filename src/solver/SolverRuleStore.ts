import type { RequestRecord } from '../domain/request/requestRecord';
import { SolverRuleInputSchema, defaultActionFor, isRelayAction, ruleMatches, type SolverAction, type SolverRule, type SolverRuleInput, type SolverRuleSubject } from '../domain/fill/solverRules';
import type { SeededRng } from '../rng/SeededRng';

const FILL: SolverAction = { kind: 'fill' };

/**
 * The older global switch, kept for config files and callers that use it: `hold` is a catch-all
 * `never` rule, `fill` removes it.
 */
export type SolverPolicy = 'fill' | 'hold';

/** The rule store's whole state (`SolverRuleStore.capture`). */
export interface SolverRuleState {
  rules: SolverRule[];
  nextId: number;
  holdRuleId: string | undefined;
}

function subjectOf(record: RequestRecord): SolverRuleSubject {
  return { id: record.id, originChainId: record.quote.originChainId, destinationChainId: record.quote.destinationChainId, requestType: record.quote.requestType };
}

/**
 * The solver's behaviour as rule data (like the quote-time RPC faults), applied at one hook: the
 * point where the solver settles an indexed deposit. The newest matching rule wins; a rule with a
 * probability draws from the simulator's seeded RNG each time it matches; `times` counts down.
 */
export class SolverRuleStore {
  private rules: SolverRule[] = [];
  private nextId = 1;
  /** The id of the catch-all `never` rule that stands for the `hold` policy, while it is on. */
  private holdRuleId: string | undefined;

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

  /** Removes every rule, the `hold` policy's with them. */
  clear(): void {
    this.rules = [];
    this.holdRuleId = undefined;
  }

  /** Forgets every rule and the `hold` policy, and restarts the ids. */
  reset(): void {
    this.rules = [];
    this.nextId = 1;
    this.holdRuleId = undefined;
  }

  /** The rules, the next id and the hold policy now, to put back with `restore` (a world snapshot). */
  capture(): SolverRuleState {
    return { rules: this.list(), nextId: this.nextId, holdRuleId: this.holdRuleId };
  }

  /** Puts back what `capture` returned (which stays usable again). */
  restore(state: SolverRuleState): void {
    this.rules = state.rules.map((rule) => ({ ...rule }));
    this.nextId = state.nextId;
    this.holdRuleId = state.holdRuleId;
  }

  getPolicy(): SolverPolicy {
    return this.holdRuleId !== undefined && this.rules.some((rule) => rule.id === this.holdRuleId) ? 'hold' : 'fill';
  }

  /** `hold`: adds a catch-all `never` rule; `fill`: removes it. False when the policy was already on. */
  setPolicy(policy: SolverPolicy): boolean {
    if (policy === this.getPolicy()) return false;
    if (policy === 'hold') {
      this.holdRuleId = this.add({ action: { kind: 'never' } }).id;
      return true;
    }
    if (this.holdRuleId !== undefined) this.remove(this.holdRuleId);
    this.holdRuleId = undefined;
    return true;
  }

  /**
   * The relay fault the rules script for a request the gasless relayer is about to submit
   * (`refuseRelay` / `dropRelay`); undefined when none matches. Other rule kinds are left alone.
   */
  relayFaultFor(record: RequestRecord): 'refuse' | 'drop' | undefined {
    const action = this.decide(subjectOf(record), (candidate) => !isRelayAction(candidate));
    if (action.kind === 'refuseRelay') return 'refuse';
    if (action.kind === 'dropRelay') return 'drop';
    return undefined;
  }

  /**
   * What to do with a request whose deposit is indexed: scripted rules first (relay faults are
   * left to the relayer, a `delay` already waited out is skipped); unmatched, the request's own
   * default (the `debug-force-refund` referrer refunds).
   */
  pendingActionFor(record: RequestRecord, delayReleased: boolean): SolverAction {
    return this.decide(
      subjectOf(record),
      (candidate) => isRelayAction(candidate) || (candidate.kind === 'delay' && delayReleased),
      defaultActionFor(record.quote.referrer),
    );
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
