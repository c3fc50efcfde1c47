import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defaultActionFor, ruleMatches, SolverRuleInputSchema, type SolverRuleSubject } from '../../../src/domain/fill/solverRules';
import { REQUEST_TYPES } from '../../../src/domain/request/requestRecord';
import { SeededRng } from '../../../src/rng/SeededRng';
import { SolverRuleStore } from '../../../src/solver/SolverRuleStore';
import { hexId } from '../../support/requestRecordFixture';

const subject = (overrides: Partial<SolverRuleSubject> = {}): SolverRuleSubject => ({
  id: hexId(1),
  originChainId: 1,
  destinationChainId: 8453,
  requestType: 'Bridge',
  ...overrides,
});

describe('solver rules: which requests', () => {
  it('an empty match is every request; each condition given must hold', () => {
    fc.assert(
      fc.property(
        fc.record({ id: fc.integer({ min: 1, max: 5 }), origin: fc.constantFrom(1, 10, 8453), destination: fc.constantFrom(1, 10, 8453), type: fc.constantFrom(...REQUEST_TYPES) }),
        fc.record({ id: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }), origin: fc.option(fc.constantFrom(1, 10, 8453), { nil: undefined }), type: fc.option(fc.constantFrom(...REQUEST_TYPES), { nil: undefined }) }),
        (facts, match) => {
          const s = subject({ id: hexId(facts.id), originChainId: facts.origin, destinationChainId: facts.destination, requestType: facts.type });
          const rule = {
            ...(match.id === undefined ? {} : { requestId: hexId(match.id) }),
            ...(match.origin === undefined ? {} : { originChainId: match.origin }),
            ...(match.type === undefined ? {} : { requestType: match.type }),
          };
          const expected = (match.id === undefined || match.id === facts.id) && (match.origin === undefined || match.origin === facts.origin) && (match.type === undefined || match.type === facts.type);
          expect(ruleMatches(rule, s)).toBe(expected);
        },
      ),
    );
  });

  it('matches a request id in any case', () => {
    expect(ruleMatches({ requestId: hexId(0xab).toUpperCase().replace('0X', '0x') }, subject({ id: hexId(0xab) }))).toBe(true);
  });
});

describe('solver rules: the schema', () => {
  it.each([
    [{ action: { kind: 'explode' } }, 'unknown action'],
    [{ action: { kind: 'fail' } }, 'fail without a reason'],
    [{ action: { kind: 'fail', failReason: 'N/A' } }, 'N/A is no failReason'],
    [{ action: { kind: 'fail', failReason: 'NOT_A_REASON' } }, 'not in §7.3'],
    [{ action: { kind: 'delay', seconds: -1 } }, 'negative delay'],
    [{ action: { kind: 'fill' }, probability: 1.5 }, 'probability over 1'],
    [{ action: { kind: 'fill' }, times: 0 }, 'zero times'],
    [{ action: { kind: 'fill' }, match: { chain: 1 } }, 'unknown match field'],
    [{ action: { kind: 'fill' }, match: { requestId: '0x12' } }, 'short request id'],
    [{ action: { kind: 'fill' }, extra: true }, 'unknown field'],
  ])('rejects %j (%s)', (input, _why) => {
    expect(SolverRuleInputSchema.safeParse(input).success).toBe(false);
  });

  it('accepts every action kind with its fields', () => {
    for (const action of [
      { kind: 'fill' },
      { kind: 'delay', seconds: 5 },
      { kind: 'never' },
      { kind: 'fail', failReason: 'SOLVER_CAPACITY_EXCEEDED' },
      { kind: 'refund' },
      { kind: 'dropBroadcast' },
      { kind: 'refuseBroadcast' },
      { kind: 'drain' },
    ]) {
      expect(SolverRuleInputSchema.parse({ action })).toMatchObject({ action, match: {} });
    }
  });
});

describe('SolverRuleStore.decide', () => {
  it('fills when no rule matches; the newest matching rule wins', () => {
    const store = new SolverRuleStore(new SeededRng(1));
    expect(store.decide(subject())).toEqual({ kind: 'fill' });
    store.add({ action: { kind: 'never' } });
    store.add({ match: { originChainId: 10 }, action: { kind: 'drain' } });
    expect(store.decide(subject())).toEqual({ kind: 'never' });
    expect(store.decide(subject({ originChainId: 10 }))).toEqual({ kind: 'drain' });
  });

  it('a rule with `times` applies that many times, then is gone', () => {
    const store = new SolverRuleStore(new SeededRng(1));
    const rule = store.add({ action: { kind: 'refund' }, times: 2 });
    expect(store.decide(subject())).toEqual({ kind: 'refund' });
    expect(store.list()).toEqual([{ ...rule, remaining: 1 }]);
    expect(store.decide(subject())).toEqual({ kind: 'refund' });
    expect(store.decide(subject())).toEqual({ kind: 'fill' });
    expect(store.list()).toEqual([]);
  });

  it('a probability draws from the seeded RNG: the same seed gives the same outcomes, another seed others', () => {
    const outcomes = (seed: number) => {
      const store = new SolverRuleStore(new SeededRng(seed));
      store.add({ action: { kind: 'drain' }, probability: 0.5 });
      return Array.from({ length: 64 }, () => store.decide(subject()).kind).join(',');
    };
    expect(outcomes(42)).toBe(outcomes(42));
    expect(outcomes(42)).not.toBe(outcomes(43));
    const drains = outcomes(42).split(',').filter((kind) => kind === 'drain').length;
    expect(drains).toBeGreaterThan(16);
    expect(drains).toBeLessThan(48);
  });

  it('the RNG reset replays the same outcomes (the control plane reset)', () => {
    const rng = new SeededRng(7);
    const store = new SolverRuleStore(rng);
    store.add({ action: { kind: 'drain' }, probability: 0.3 });
    const first = Array.from({ length: 32 }, () => store.decide(subject()).kind);
    rng.reset();
    expect(Array.from({ length: 32 }, () => store.decide(subject()).kind)).toEqual(first);
  });

  it('skips the actions the caller says are spent (a delay already waited out)', () => {
    const store = new SolverRuleStore(new SeededRng(1));
    store.add({ action: { kind: 'delay', seconds: 10 } });
    expect(store.decide(subject(), (action) => action.kind === 'delay')).toEqual({ kind: 'fill' });
  });
});

describe('the debug-force-refund referrer', () => {
  it('makes refund the default action of its request; a matching rule still wins', () => {
    const store = new SolverRuleStore(new SeededRng(1));
    const forced = defaultActionFor('debug-force-refund');
    expect(forced).toEqual({ kind: 'refund', failReason: 'MANUAL_ADMIN_REFUND' });
    expect(defaultActionFor(null)).toEqual({ kind: 'fill' });
    expect(defaultActionFor('my-app')).toEqual({ kind: 'fill' });
    expect(store.decide(subject(), undefined, forced)).toEqual(forced);
    store.add({ action: { kind: 'never' } });
    expect(store.decide(subject(), undefined, forced)).toEqual({ kind: 'never' });
  });
});
