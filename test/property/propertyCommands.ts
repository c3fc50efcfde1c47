import { stringify } from 'yaml';

/**
 * The commands of the model-based property test (test/property/requestLifecycle.test.ts) as plain
 * data, the little model they need (which quotes exist, so a deposit can name one), and the pure
 * conversion of a command list into scenario steps and a scenario file (src/scenario/scenarioSchema.ts),
 * so a failing sequence can be replayed with `npx intentsim scenario run`.
 *
 * Routes go from the origin chains (1, 42161) to Base (8453) only, and reorgs hit origin chains
 * only: a reorg then removes deposits and refunds, never a fill.
 */

export const ORIGIN_CHAINS = [1, 42161] as const;
export const DESTINATION_CHAIN = 8453;
export const PROPERTY_CHAINS = [1, 8453, 42161] as const;
/** The seed of the simulator in every run (and of the scenario file a failure is printed as). */
export const PROPERTY_SIMULATOR_SEED = 1;

type OriginChain = (typeof ORIGIN_CHAINS)[number];
type Symbol = 'ETH' | 'USDC';

export interface Route {
  originChainId: OriginChain;
  originCurrency: Symbol;
  destinationCurrency: Symbol;
}

/** Every route a quote can take: ETH or USDC from each origin chain, into ETH or USDC on Base. */
export const ROUTES: readonly Route[] = ORIGIN_CHAINS.flatMap((originChainId) =>
  (['ETH', 'USDC'] as const).flatMap((originCurrency) => (['ETH', 'USDC'] as const).map((destinationCurrency) => ({ originChainId, originCurrency, destinationCurrency }))),
);

/** Amounts quoted (smallest units): small enough for every pool and inventory, large enough for the fees. */
export const AMOUNT_RANGE: Record<Symbol, { min: bigint; max: bigint }> = {
  ETH: { min: 10n ** 15n, max: 5n * 10n ** 16n },
  USDC: { min: 2_000_000n, max: 100_000_000n },
};
/** What a deposit in the wrong currency pays: a fixed, affordable amount of the other currency. */
const WRONG_CURRENCY_AMOUNT: Record<Symbol, string> = { ETH: '10000000000000000', USDC: '30000000' };

export const DEPOSIT_KINDS = ['exact', 'under', 'over', 'wrongCurrency', 'wrongChain'] as const;
export type DepositKind = (typeof DEPOSIT_KINDS)[number];

/** How a deposit pays: `percent` sizes under- and overpayments, `otherChain` picks the wrong chain. */
export interface DepositHow {
  how: DepositKind;
  percent: number;
  otherChain: 0 | 1;
}

export type RuleAction =
  | { kind: 'never' }
  | { kind: 'delay'; seconds: number }
  | { kind: 'fail'; failReason: 'SOLVER_CAPACITY_EXCEEDED' }
  | { kind: 'refund' }
  | { kind: 'drain' }
  | { kind: 'dropBroadcast' }
  | { kind: 'refuseBroadcast' };

export type PropertyCommandData =
  /**
   * A quote on ROUTES[route] by test account `user` (`amount` in the smallest unit of the origin
   * currency), and, unless `deposit` is null, a deposit for it right away.
   */
  | { kind: 'quote'; route: number; user: number; amount: string; useDepositAddress: boolean; strict: boolean; deposit: DepositHow | null }
  /** A deposit for the `quote`-th latest quote (modulo the quotes made so far). */
  | ({ kind: 'deposit'; quote: number } & DepositHow)
  /** A solver rule for one quote (`quote`, modulo the quotes made) or, with null, for every request. */
  | { kind: 'solverRule'; quote: number | null; action: RuleAction; once: boolean }
  | { kind: 'clearSolverRules' }
  | { kind: 'reorg'; chainId: OriginChain; depth: 1 | 2 }
  | { kind: 'mine'; chainId: OriginChain; blocks: number }
  | { kind: 'advanceClock'; seconds: number }
  | { kind: 'restart' };

export interface ModelQuote {
  alias: string;
  route: Route;
  user: number;
  amount: bigint;
  useDepositAddress: boolean;
  deposits: number;
}

/** What the property knows without asking the simulator. */
export interface PropertyModel {
  quotes: ModelQuote[];
}

export function initialModel(): PropertyModel {
  return { quotes: [] };
}

/** A scenario step as written in a file: one key, the step's kind. */
export type ScenarioStepObject = Record<string, unknown>;

/**
 * Steps run before the commands (and written first in the replay file): two empty blocks on each
 * origin chain, so a reorg of depth 2 never reaches the simulator's own deployment.
 */
export const SETUP_STEPS: readonly ScenarioStepObject[] = ORIGIN_CHAINS.map((chainId) => ({ mine: { chainId, blocks: 2 } }));

/**
 * Steps run after the commands, before the last check (and written last in a replay file whose
 * failure they found): every solver rule removed and the clock moved past every delay (200 s at
 * most) and the fill inclusion window (120 s), 30 s at a time, so every paid request must have settled.
 */
export const FINAL_STEPS: readonly ScenarioStepObject[] = [
  { clearSolverRules: true },
  // in steps of a quarter-window or so, so a dropped fill is sent again (submitted → pending → submitted) rather than timed out
  ...Array.from({ length: 8 }, () => ({ advanceClock: { seconds: 30 } })),
];

/** Whether the command can run in this model state (fast-check skips it otherwise; so does the converter). */
export function applicable(command: PropertyCommandData, model: PropertyModel): boolean {
  return command.kind !== 'deposit' || model.quotes.length > 0;
}

/** The `fromLatest`-th latest quote (0: the latest), modulo the quotes made so far. */
function quoteAt(model: PropertyModel, fromLatest: number): ModelQuote {
  const quote = model.quotes[model.quotes.length - 1 - (fromLatest % model.quotes.length)];
  if (!quote) throw new Error('no quote yet');
  return quote;
}

/**
 * The scenario steps the command is, for the model state before it runs, and the command's
 * change to the model (made here).
 */
export function advance(command: PropertyCommandData, model: PropertyModel): ScenarioStepObject[] {
  switch (command.kind) {
    case 'quote': {
      const route = ROUTES[command.route % ROUTES.length]!;
      const alias = `q${model.quotes.length + 1}`;
      const quote = {
        quote: {
          as: alias,
          user: command.user,
          originChainId: route.originChainId,
          destinationChainId: DESTINATION_CHAIN,
          originCurrency: route.originCurrency,
          destinationCurrency: route.destinationCurrency,
          amount: command.amount,
          recipient: `fresh:${alias}`,
          ...(command.useDepositAddress ? { useDepositAddress: true, ...(command.strict ? { strict: true, refundTo: command.user } : {}) } : {}),
        },
      };
      model.quotes.push({ alias, route, user: command.user, amount: BigInt(command.amount), useDepositAddress: command.useDepositAddress, deposits: 0 });
      return command.deposit ? [quote, depositStep(model.quotes.at(-1)!, command.deposit)] : [quote];
    }
    case 'deposit':
      return [depositStep(quoteAt(model, command.quote), command)];
    case 'solverRule': {
      const match = command.quote === null || model.quotes.length === 0 ? {} : { request: quoteAt(model, command.quote).alias };
      return [{ solverRule: { match, action: command.action, ...(command.once ? { times: 1 } : {}) } }];
    }
    case 'clearSolverRules':
      return [{ clearSolverRules: true }];
    case 'reorg':
      return [{ reorg: { chainId: command.chainId, depth: command.depth } }];
    case 'mine':
      return [{ mine: { chainId: command.chainId, blocks: command.blocks } }];
    case 'advanceClock':
      return [{ advanceClock: { seconds: command.seconds } }];
    case 'restart':
      return [{ restart: true }];
  }
}

/** A deposit step for the quote (counted in the model). */
function depositStep(quote: ModelQuote, how: DepositHow): ScenarioStepObject {
  quote.deposits++;
  const part = (quote.amount * BigInt(how.percent)) / 100n;
  const deposit: Record<string, unknown> = { request: quote.alias };
  if (how.how === 'under' && part > 0n) deposit.amount = `quoted-${part}`;
  if (how.how === 'over' && part > 0n) deposit.amount = `quoted+${part}`;
  if (how.how === 'wrongCurrency') {
    const other: Symbol = quote.route.originCurrency === 'ETH' ? 'USDC' : 'ETH';
    deposit.currency = other;
    deposit.amount = WRONG_CURRENCY_AMOUNT[other];
  }
  if (how.how === 'wrongChain') {
    const others = [...ORIGIN_CHAINS, DESTINATION_CHAIN].filter((id) => id !== quote.route.originChainId);
    deposit.chainId = others[how.otherChain % others.length];
  }
  return { deposit };
}

/** The steps a command list runs (setup steps first), skipping commands the model does not allow, as the property does. */
export function scenarioStepsFor(commands: readonly PropertyCommandData[]): ScenarioStepObject[] {
  const model = initialModel();
  const steps: ScenarioStepObject[] = [...SETUP_STEPS];
  for (const command of commands) {
    if (applicable(command, model)) steps.push(...advance(command, model));
  }
  return steps;
}

/**
 * A scenario file (YAML, the format `npx intentsim scenario run` takes) that replays the commands
 * on a simulator set up as the property's: seed, chains, a webhook receiver, the same clock start.
 * `problem` (what the property saw go wrong) goes into the description; `final` appends FINAL_STEPS.
 */
export function commandsToScenarioYaml(commands: readonly PropertyCommandData[], options: { problem?: string; final?: boolean } = {}): string {
  const { problem } = options;
  const description = `Replay of a sequence the model-based property test (test/property/requestLifecycle.test.ts) ran.${problem ? ` It broke: ${problem}` : ''}`;
  const lines = [
    // as a mapping, so a multi-line problem becomes a block scalar indented under its key
    stringify({ description }, { lineWidth: 0 }).trimEnd(),
    `seed: ${PROPERTY_SIMULATOR_SEED}`,
    `chains: [${PROPERTY_CHAINS.join(', ')}]`,
    'webhook: {}',
    'steps:',
    ...[...scenarioStepsFor(commands), ...(options.final ? FINAL_STEPS : [])].map((step) => {
      const [kind, spec] = Object.entries(step)[0]!;
      return `  - ${kind}: ${stringify(spec, { collectionStyle: 'flow', lineWidth: 0 }).trimEnd()}`;
    }),
  ];
  return `${lines.join('\n')}\n`;
}
