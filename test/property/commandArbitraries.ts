import fc from 'fast-check';
import { AMOUNT_RANGE, DEPOSIT_KINDS, ORIGIN_CHAINS, ROUTES, type DepositHow, type PropertyCommandData, type RuleAction } from './propertyCommands';

/** Random commands of the model-based property (test/property/requestLifecycle.test.ts), as data. */

const depositHow: fc.Arbitrary<DepositHow> = fc.record({
  how: fc.oneof({ arbitrary: fc.constant('exact' as const), weight: 4 }, { arbitrary: fc.constantFrom(...DEPOSIT_KINDS), weight: 3 }),
  percent: fc.integer({ min: 1, max: 60 }),
  otherChain: fc.constantFrom(0 as const, 1 as const),
});

const quoteCommand = fc
  .record({
    route: fc.nat({ max: ROUTES.length - 1 }),
    user: fc.nat({ max: 3 }),
    scale: fc.nat({ max: 10_000 }),
    depositAddress: fc.nat({ max: 5 }),
    deposit: fc.option(depositHow, { nil: null, freq: 4 }),
  })
  .map(({ route, user, scale, depositAddress, deposit }): PropertyCommandData => {
    const { min, max } = AMOUNT_RANGE[ROUTES[route]!.originCurrency];
    const amount = min + ((max - min) * BigInt(scale)) / 10_000n;
    return { kind: 'quote', route, user, amount: amount.toString(), useDepositAddress: depositAddress === 0 || depositAddress === 1, strict: depositAddress === 1, deposit };
  });

const depositCommand = fc.record({ quote: fc.nat({ max: 3 }), deposit: depositHow }).map(({ quote, deposit }): PropertyCommandData => ({ kind: 'deposit', quote, ...deposit }));

const ruleAction: fc.Arbitrary<RuleAction> = fc.oneof(
  fc.constant({ kind: 'never' as const }),
  fc.constantFrom(30, 200).map((seconds) => ({ kind: 'delay' as const, seconds })),
  fc.constant({ kind: 'fail' as const, failReason: 'SOLVER_CAPACITY_EXCEEDED' as const }),
  fc.constant({ kind: 'refund' as const }),
  fc.constant({ kind: 'drain' as const }),
  fc.constant({ kind: 'dropBroadcast' as const }),
  fc.constant({ kind: 'refuseBroadcast' as const }),
);

const solverRuleCommand = fc
  .record({ quote: fc.option(fc.nat({ max: 7 }), { nil: null }), action: ruleAction, once: fc.boolean() })
  .map((fields): PropertyCommandData => ({ kind: 'solverRule', ...fields }));

const originChain = fc.constantFrom(...ORIGIN_CHAINS);

/** One command of the property, weighted towards quotes, deposits and solver rules. */
export const commandData: fc.Arbitrary<PropertyCommandData> = fc.oneof(
  { arbitrary: quoteCommand, weight: 5 },
  { arbitrary: depositCommand, weight: 4 },
  { arbitrary: solverRuleCommand, weight: 3 },
  { arbitrary: fc.constant<PropertyCommandData>({ kind: 'clearSolverRules' }), weight: 1 },
  { arbitrary: fc.record({ chainId: originChain, depth: fc.constantFrom(1 as const, 2 as const) }).map((fields): PropertyCommandData => ({ kind: 'reorg', ...fields })), weight: 2 },
  { arbitrary: fc.record({ chainId: originChain, blocks: fc.integer({ min: 1, max: 3 }) }).map((fields): PropertyCommandData => ({ kind: 'mine', ...fields })), weight: 1 },
  { arbitrary: fc.constantFrom(5, 40, 130, 310).map((seconds): PropertyCommandData => ({ kind: 'advanceClock', seconds })), weight: 2 },
  { arbitrary: fc.constant<PropertyCommandData>({ kind: 'restart' }), weight: 1 },
);

