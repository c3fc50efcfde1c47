import { z } from 'zod';
import { SolverActionSchema, SolverRuleMatchSchema } from '../domain/fill/solverRules';
import { DROP_TRANSACTION_TARGETS } from '../domain/chain/dropTransactionTargets';
import { FAIL_REASONS, REFUND_FAIL_REASONS, REQUEST_STATUSES } from '../domain/request/requestStatus';
import { StepBoundsSchema, type ScenarioStepBounds } from './stepBounds';

/**
 * The scenario file format (YAML), SPEC field names wherever the SPEC has one. docs/scenarios.md ("Scenarios")
 * documents it with an example; every step is an object with exactly one key, its kind.
 */

const Alias = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,39}$/, 'a name of letters, digits, - and _ (starting with a letter)');
const ChainId = z.number().int().positive().max(2 ** 53 - 1);
/** `account:N` (a funded test account), `fresh:NAME` (an empty address named by NAME), or an address. */
const AddressRef = z.union([z.number().int().min(0).max(99), z.string().min(1).max(200)]);
/** A currency by symbol on its chain (`ETH`, `USDC`, `WETH`, the chain's native symbol) or by address. */
const CurrencyRef = z.string().min(1).max(100);
const Uint = z.string().regex(/^\d{1,78}$/, 'an integer string in the smallest unit');
const Status = z.enum(REQUEST_STATUSES);
const Hex = z.string().regex(/^0x([0-9a-fA-F]{2})*$/, 'hex bytes (0x…)');
/**
 * Arguments of a contract call, as JSON: integers as numbers or decimal strings, addresses as refs
 * (`account:N`, `fresh:NAME`, `contract:NAME`) or hex, structs as objects; `{ call: {…} }` is the
 * calldata of another call, `{ sign: {…} }` a signature (docs/scenarios.md ("Contracts in scenarios")).
 */
const CallArgs = z.array(z.unknown()).max(32).default([]);
/** A contract: a name a `deployContract` step gave (`NAME` or `contract:NAME`), one of the chain's own (`contract:pool`), a currency symbol, or an address (with `abi`). */
const ContractRef = z.string().min(1).max(200);
/** The contract of fixtures/contracts whose ABI encodes the call (default: the deployed contract's own; a currency's token ABI). */
const AbiName = z.string().regex(/^[A-Za-z][A-Za-z0-9]{0,63}$/, 'a contract name of fixtures/contracts');

/**
 * One destination call of a Call request (`txs[]`): `function` and `args` encoded against the
 * contract's ABI into the SPEC's `{ to, data, value }`, or `data` sent as written.
 */
export const CallTxSchema = z
  .object({
    to: ContractRef,
    function: z.string().min(1).max(100).optional(),
    args: CallArgs,
    abi: AbiName.optional(),
    data: Hex.optional(),
    value: Uint.default('0'),
  })
  .strict()
  .refine((tx) => (tx.function === undefined) !== (tx.data === undefined), { message: 'a call has either function (and args) or data', path: ['function'] });

export const QuoteStepSchema = z
  .object({
    as: Alias,
    user: AddressRef.default(0),
    originChainId: ChainId,
    destinationChainId: ChainId,
    originCurrency: CurrencyRef,
    destinationCurrency: CurrencyRef,
    amount: Uint,
    tradeType: z.enum(['EXACT_INPUT', 'EXPECTED_OUTPUT', 'EXACT_OUTPUT']).default('EXACT_INPUT'),
    recipient: AddressRef.optional(),
    refundTo: AddressRef.optional(),
    /** The quote must be refused with this errorCode (SPEC §7.1) instead of answering 200. */
    expectError: z.string().min(1).optional(),
    /** With `expectError`: text the refusal's message must contain (e.g. the decoded revert's label). */
    expectMessage: z.string().min(1).max(500).optional(),
    /** Destination calls (a Call request), encoded by the runner into `{ to, data, value }`. */
    txs: z.array(CallTxSchema).max(16).optional(),
  })
  // any other POST /quote/v2 field (useDepositAddress, strict, slippageTolerance, appFees, txs, …) is sent as written
  .catchall(z.unknown());

/** `quoted`, `quoted+N`, `quoted-N`, `quoted*N` (N an integer) or an amount in the smallest unit. */
export const DepositAmount = z.string().regex(/^(quoted([+\-*]\d{1,78})?|\d{1,78})$/, '"quoted", "quoted+N", "quoted-N", "quoted*N" or an integer string');

export const DepositStepSchema = z
  .object({
    request: Alias,
    /**
     * Names the request record this deposit ends up in when it is not the quote's own (a second
     * deposit, an orphan): `expect` can then name it (found by its deposit's hash, SPEC §4.3 depositTxHash).
     */
    as: Alias.optional(),
    /** Name this request id in the deposit instead of the quote's (a deposit for a request nobody quoted). */
    requestId: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'a 32-byte hex request id').optional(),
    /** Who pays (default: the quote's user). */
    from: AddressRef.optional(),
    amount: DepositAmount.default('quoted'),
    /** Pay on another chain than the quoted origin (a wrong-chain deposit). */
    chainId: ChainId.optional(),
    /** Pay in another currency than quoted (a wrong-currency deposit). */
    currency: CurrencyRef.optional(),
    /**
     * Send as `from` (default: the quote's user) without its key, impersonated (an EVM chain's
     * `anvil_impersonateAccount`): a record's user on a forked chain, with what it held there (its
     * native balance topped up when short of the deposit's value and gas).
     */
    impersonate: z.boolean().default(false),
    /** Wait for the deposit's receipt (false while the chain's automine is off). */
    wait: z.boolean().default(true),
    /** The chain must refuse the quote's own deposit transaction with a message containing this (the exchange's errorCode: `ACCOUNT_PAUSED`, `INVALID_API_KEY`, …). */
    expectError: z.string().min(1).max(200).optional(),
  })
  .strict();

export const TransferStepSchema = z
  .object({
    from: AddressRef.default(0),
    /** An address ref, or `depositAddress:ALIAS` (the quote's deposit address). */
    to: AddressRef,
    chainId: ChainId,
    currency: CurrencyRef,
    amount: Uint,
    wait: z.boolean().default(true),
  })
  .strict();

export const SolverRuleStepSchema = z
  .object({
    match: SolverRuleMatchSchema.omit({ requestId: true })
      .extend({ request: Alias.optional() })
      .strict()
      .default({}),
    action: SolverActionSchema,
    probability: z.number().min(0).max(1).optional(),
    times: z.number().int().positive().max(1_000_000).optional(),
  })
  .strict();

export const DeployContractStepSchema = z
  .object({
    as: Alias,
    chainId: ChainId,
    /** A fixture contract of fixtures/contracts (EditionMint1155, MarketplaceOrderBook, PausableBadge, …). */
    name: AbiName,
    args: CallArgs,
    from: AddressRef.default(0),
  })
  .strict();

export const CallContractStepSchema = z
  .object({
    contract: ContractRef,
    /** Default: the chain the contract was deployed on (required for a currency or the chain's own contracts). */
    chainId: ChainId.optional(),
    abi: AbiName.optional(),
    function: z.string().min(1).max(100),
    args: CallArgs,
    value: Uint.default('0'),
    from: AddressRef.default(0),
    /** false: sent into the pool ahead of everything waiting there (automine off), not waited for. */
    wait: z.boolean().default(true),
  })
  .strict();

export const BlockAccountStepSchema = z
  .object({
    chainId: ChainId,
    currency: CurrencyRef,
    account: AddressRef,
    blocked: z.boolean().default(true),
    wait: z.boolean().default(true),
  })
  .strict();

export const ExchangeAccountStepSchema = z
  .object({
    chainId: ChainId,
    /** An exchange account: `account:N` (test account N's) or an index (`"1"`: the solver's account). */
    account: AddressRef,
    paused: z.boolean().optional(),
    apiKeyRevoked: z.boolean().optional(),
    /** The account's collateral, set outright (smallest unit). */
    collateral: Uint.optional(),
  })
  .strict()
  .refine((spec) => spec.paused !== undefined || spec.apiKeyRevoked !== undefined || spec.collateral !== undefined, { message: 'name at least one of paused, apiKeyRevoked, collateral' });
/**
 * The quote's user spends the inputs of the request's last deposit again, back to themselves with
 * a higher fee (Bitcoin-style chains): in the mempool as a replacement (RBF), or with `inReorgOfDepth`
 * mined in the first block of a competing branch replacing that many blocks.
 */
export const DoubleSpendStepSchema = z
  .object({
    request: Alias,
    /** Default: the quote's origin chain. */
    chainId: ChainId.optional(),
    inReorgOfDepth: z.number().int().positive().max(64).optional(),
  })
  .strict();

const ExpectedValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const ExpectStepSchema = z
  .object({
    request: Alias,
    /** GET /intents/status/v3 `status` (SPEC §2.4). */
    status: Status.optional(),
    failReason: z.enum(FAIL_REASONS).optional(),
    refundFailReason: z.enum([...REFUND_FAIL_REASONS, 'N/A']).optional(),
    /** Every status the request went through, in order (from the committed status changes). */
    statuses: z.array(Status).optional(),
    /** Statuses delivered to the scenario's webhook receiver and answered 2xx, in order. */
    webhooks: z.array(Status).optional(),
    /** Fields of the §2.3 record (GET /requests/v3), by dotted path: `data.outTxs.0.status`, `data.inTxs.length`. */
    record: z.record(z.string().min(1), ExpectedValue).optional(),
  })
  .strict();

export const ExpectBalanceStepSchema = z
  .object({
    chainId: ChainId,
    address: AddressRef,
    /** A currency of the chain, or `contract:NAME`: an ERC-20 a `deployContract` step deployed. */
    currency: CurrencyRef,
    equals: Uint,
  })
  .strict();

/**
 * The local solver stands where the upstream's solver stood on a forked chain (the scenario's
 * `fork:` section names its upstream and block): its balance of `currency` made the upstream
 * solver's there (an EVM chain: `anvil_setBalance`, a token by impersonated transfers).
 */
export const SolverAsUpstreamStepSchema = z
  .object({
    chainId: ChainId,
    /** The upstream's solver on that chain (its GET /chains `solverAddresses[0]`). */
    upstreamSolver: z.string().min(1).max(200),
    /** `native`, or the token's address on the chain. */
    currency: CurrencyRef.default('native'),
  })
  .strict();

/**
 * Gives the record's user back what the record's deposit spent, on a forked chain whose fork reads
 * its upstream as it is now, after that deposit (Bitcoin: the outputs the deposit spent, read from
 * its transaction upstream, unspent here), as `intentsim replay` does before its quote; written
 * before the quote by `scenario from-record --fork` where the origin's kind has it.
 */
export const RestoreDepositFundsStepSchema = z
  .object({
    chainId: ChainId,
    /** The record's user on that chain. */
    user: z.string().min(1).max(200),
    /** The record's deposit (its `inTxs[0].txHash`) on the upstream. */
    depositTxHash: z.string().min(1).max(200),
  })
  .strict();

/** An upstream a chain is forked from (docs/forking.md): its RPC URL and, where the kind pins one (EVM), the block. */
export const ScenarioForkSchema = z
  .object({
    url: z.string().url().refine((url) => /^https?:\/\//.test(url), 'an http(s) URL'),
    block: z.number().int().min(0).optional(),
  })
  .strict();

export const STEP_SCHEMAS = {
  quote: QuoteStepSchema,
  deposit: DepositStepSchema,
  transfer: TransferStepSchema,
  solverRule: SolverRuleStepSchema,
  clearSolverRules: z.literal(true),
  advanceClock: z.object({ seconds: z.number().positive().max(10 * 365 * 24 * 3600) }).strict(),
  mine: z
    .object({
      chainId: ChainId,
      blocks: z.number().int().positive().max(1000).default(1),
      /** The first mined block's time, unix seconds (after the chain's latest block). */
      timestamp: z.number().int().positive().max(2 ** 40).optional(),
    })
    .strict(),
  automine: z.object({ chainId: ChainId, enabled: z.boolean() }).strict(),
  reorg: z.object({ chainId: ChainId, depth: z.number().int().positive().max(64) }).strict(),
  doubleSpend: DoubleSpendStepSchema,
  rpcFault: z.object({ chainId: ChainId, kind: z.enum(['rpc-timeout', 'rpc-error']).nullable() }).strict(),
  exchangeAccount: ExchangeAccountStepSchema,
  /** The exchange transfer of a named deposit (`deposit … as:`) sent again as it was, its nonce included: the exchange must refuse it with `expectError`. */
  resendExchangeTransfer: z.object({ deposit: Alias, expectError: z.string().min(1).max(200) }).strict(),
  /** The chain answers transactions of `target` and never mines them (Solana); null: none dropped. */
  dropTransactions: z.object({ chainId: ChainId, target: z.enum(DROP_TRANSACTION_TARGETS).nullable() }).strict(),
  /**
   * Saves a chain's state under a name, or without `chainId` the whole world's (every chain, the
   * requests, webhooks, solver rules, the clock); `revert` comes back to it once, or again and
   * again when the world's was taken with `keep: true`.
   */
  snapshot: z
    .object({ chainId: ChainId.optional(), as: Alias, keep: z.boolean().optional() })
    .strict()
    .refine((spec) => spec.keep === undefined || spec.chainId === undefined, { message: 'keep is for a snapshot of the whole world (no chainId)' }),
  revert: z.object({ snapshot: Alias }).strict(),
  deployContract: DeployContractStepSchema,
  callContract: CallContractStepSchema,
  blockAccount: BlockAccountStepSchema,
  setCode: z.object({ chainId: ChainId, address: AddressRef, code: Hex }).strict(),
  restart: z.literal(true),
  expect: ExpectStepSchema,
  expectBalance: ExpectBalanceStepSchema,
  solverAsUpstream: SolverAsUpstreamStepSchema,
  restoreDepositFunds: RestoreDepositFundsStepSchema,
} as const;

export type StepKind = keyof typeof STEP_SCHEMAS;
export const STEP_KINDS = Object.keys(STEP_SCHEMAS) as StepKind[];
export type ScenarioStep = { [K in StepKind]: { kind: K; line: number; spec: z.output<(typeof STEP_SCHEMAS)[K]> } }[StepKind];

export const ScenarioHeaderSchema = z
  .object({
    name: z.string().min(1).max(200).optional(),
    description: z.string().max(5000).optional(),
    /** SPEC items this scenario covers (docs/testing.md kinds); docs/coverage.md counts them. */
    covers: z.array(z.string().min(1)).default([]),
    chains: z.array(ChainId).min(1).max(5).optional(),
    seed: z.number().int().min(0).max(2 ** 31).optional(),
    /** Simulator settings for this scenario (the config keys of `intentsim start`). */
    config: z
      .object({
        serviceFeeBps: z.number().int().min(0).max(1000),
        defaultSlippageBps: z.number().int().min(0).max(10_000),
        quoteTtlSeconds: z.number().int().positive(),
        webhookRetryBaseMs: z.number().int().positive(),
        solverPolicy: z.enum(['fill', 'hold']),
        /** Confirmations a deposit needs before it is filled, by chain id (`{ 8253038: 2 }`; Bitcoin-style chains). */
        depositConfirmations: z.record(z.string().regex(/^[0-9]+$/, 'a chain id'), z.number().int().min(1).max(100)),
      })
      .partial()
      .strict()
      .default({}),
    /**
     * Chains run as forks of an upstream, by chain id (`intentsim start --fork`/`--fork-block`,
     * docs/forking.md): `{ 1: { url: https://…, block: 23000000 } }`. A forked chain runs its own
     * node; a `restart` forks it again from its journal (the upstream must still serve the block).
     */
    fork: z.record(z.string().regex(/^[0-9]+$/, 'a chain id'), ScenarioForkSchema).optional(),
    /** How long each step may take, in real and in virtual time (src/scenario/stepBounds.ts; `scenario run --step-timeout` / `--step-clock-limit` win). */
    stepBounds: StepBoundsSchema.optional(),
    /** A webhook receiver for the default API key: it answers `answers` in turn, then 200. */
    webhook: z.object({ answers: z.array(z.number().int().min(200).max(599)).max(50).default([]) }).strict().optional(),
    steps: z.array(z.unknown()).min(1),
  })
  .strict();

export interface Scenario {
  file: string;
  name: string;
  description: string | undefined;
  covers: string[];
  chains: number[] | undefined;
  seed: number | undefined;
  config: z.output<typeof ScenarioHeaderSchema>['config'];
  webhook: { answers: number[] } | undefined;
  /** Forked chains by chain id (`fork:`): the upstream's URL and the block (EVM). */
  fork: Record<string, z.output<typeof ScenarioForkSchema>> | undefined;
  stepBounds: Partial<ScenarioStepBounds> | undefined;
  steps: ScenarioStep[];
}
