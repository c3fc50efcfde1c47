import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/loadScenarioFile';
import { commandData } from './commandArbitraries';
import { commandsToScenarioYaml, FINAL_STEPS, PROPERTY_CHAINS, PROPERTY_SIMULATOR_SEED, scenarioStepsFor, SETUP_STEPS, type PropertyCommandData } from './propertyCommands';

/** The property's command lists become scenario files `npx intentsim scenario run` accepts. */
describe('commandsToScenarioYaml', () => {
  type QuoteCommand = Extract<PropertyCommandData, { kind: 'quote' }>;
  const quote = (deposit: QuoteCommand['deposit']): QuoteCommand => ({
    kind: 'quote',
    // ROUTES[2]: USDC on chain 1 into ETH on Base
    route: 2,
    user: 2,
    amount: '25000000',
    useDepositAddress: false,
    strict: false,
    deposit,
  });

  it('writes each command as the scenario steps it ran, after the setup steps, in a file the loader accepts', () => {
    const commands: PropertyCommandData[] = [
      // no quote yet: skipped, as fast-check skips it
      { kind: 'deposit', quote: 0, how: 'exact', percent: 10, otherChain: 0 },
      { kind: 'solverRule', quote: null, action: { kind: 'never' }, once: false },
      quote({ how: 'under', percent: 10, otherChain: 0 }),
      { kind: 'deposit', quote: 0, how: 'wrongChain', percent: 10, otherChain: 1 },
      { ...quote(null), route: 0, amount: '10000000000000000', useDepositAddress: true, strict: true },
      { kind: 'deposit', quote: 1, how: 'wrongCurrency', percent: 10, otherChain: 0 },
      { kind: 'solverRule', quote: 0, action: { kind: 'delay', seconds: 30 }, once: true },
      { kind: 'reorg', chainId: 42161, depth: 2 },
      { kind: 'mine', chainId: 1, blocks: 3 },
      { kind: 'advanceClock', seconds: 130 },
      { kind: 'clearSolverRules' },
      { kind: 'restart' },
    ];
    const yaml = commandsToScenarioYaml(commands, { problem: 'q1: a "quoted" problem: with colons, # and\nsecond line' });
    const scenario = loadScenarioFile('replay.yaml', yaml);

    expect(scenario.seed).toBe(PROPERTY_SIMULATOR_SEED);
    expect(scenario.chains).toEqual([...PROPERTY_CHAINS]);
    expect(scenario.webhook).toEqual({ answers: [] });
    expect(scenario.description).toContain('q1: a "quoted" problem: with colons, # and');
    expect(scenario.steps.map((step) => step.kind)).toEqual([
      'mine', 'mine', 'solverRule', 'quote', 'deposit', 'deposit', 'quote', 'deposit', 'solverRule', 'reorg', 'mine', 'advanceClock', 'clearSolverRules', 'restart',
    ]);
    const spec = (index: number) => scenario.steps[index]!.spec as Record<string, unknown>;
    expect(spec(3)).toMatchObject({ as: 'q1', user: 2, originChainId: 1, destinationChainId: 8453, originCurrency: 'USDC', destinationCurrency: 'ETH', amount: '25000000', recipient: 'fresh:q1' });
    expect(spec(4)).toMatchObject({ request: 'q1', amount: 'quoted-2500000' });
    expect(spec(5)).toMatchObject({ request: 'q1', chainId: 8453 });
    expect(spec(6)).toMatchObject({ as: 'q2', useDepositAddress: true, strict: true, refundTo: 2 });
    // `quote: 1` counts back from the latest quote
    expect(spec(7)).toMatchObject({ request: 'q1', currency: 'ETH', amount: '10000000000000000' });
    expect(spec(8)).toMatchObject({ match: { request: 'q2' }, action: { kind: 'delay', seconds: 30 }, times: 1 });
    expect(spec(9)).toEqual({ chainId: 42161, depth: 2 });
  });

  it('appends the final steps when the failure came after the commands', () => {
    const scenario = loadScenarioFile('replay.yaml', commandsToScenarioYaml([quote({ how: 'exact', percent: 1, otherChain: 0 })], { final: true }));
    expect(scenario.steps.map((step) => step.kind)).toEqual([...SETUP_STEPS, { quote: {} }, { deposit: {} }, ...FINAL_STEPS].map((step) => Object.keys(step)[0]));
    expect(scenario.steps.at(-1)!.spec).toEqual({ seconds: 30 });
  });

  it('gives a file the loader accepts for any command list, with one step per step the commands ran', () => {
    fc.assert(
      fc.property(fc.array(commandData, { maxLength: 12 }), fc.string({ unit: 'binary' }), (commands, problem) => {
        const scenario = loadScenarioFile('replay.yaml', commandsToScenarioYaml(commands, { problem }));
        expect(scenario.steps).toHaveLength(scenarioStepsFor(commands).length);
        expect(scenario.description).toContain(problem.trim().split('\n')[0]!.trim());
      }),
      { seed: 7, numRuns: 300 },
    );
  });
});
