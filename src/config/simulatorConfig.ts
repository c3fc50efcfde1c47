import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { chainMetadataFor, DEFAULT_CHAIN_IDS } from '../../fixtures/chains';
import { VM_TYPES, type VmType } from '../domain/chain/chainDescription';
import { WebhookEndpointSettingsSchema } from '../domain/webhook/webhookEndpoint';
import { CONFIG_FLAGS, isHttpUrl, simulatorEnvironmentVariables } from './configFlags';
import { DEFAULT_WEBHOOK_RETRY_BASE_MS } from '../domain/webhook/webhookRetrySchedule';
import { ConfigurationError } from '../errors/IntentsimError';
import { DEFAULT_MNEMONIC } from '../keys/defaultMnemonic';
import { validateMnemonic } from '@scure/bip39';
import { wordlist as englishWordlist } from '@scure/bip39/wordlists/english';

export class ConfigError extends ConfigurationError {}

/** The port `intentsim start` listens on unless told otherwise (docs/options.md ("Ports")). */
export const DEFAULT_PORT = 4646;
export { DEFAULT_MNEMONIC };

const ChainConfigSchema = z.object({
  id: z.number().int().positive(),
  /** The chain's VM kind, which picks its adapter (default: the known chain's, else evm). */
  vm: z.enum(VM_TYPES).optional(),
  name: z.string().min(1).optional(),
  displayName: z.string().min(1).optional(),
  /** Attach to an Anvil already running at this URL instead of spawning one. */
  rpcUrl: z.string().url().optional(),
  /** With rpcUrl: reset that node to genesis (`anvil_reset`) before use. */
  resetOnStart: z.boolean().default(false),
});

export const SimulatorConfigSchema = z.object({
  /** Where the API and every chain's servers listen (0.0.0.0 or ::: every interface, docs/shared-host.md). */
  host: z.string().min(1).default('127.0.0.1'),
  /** The API's URL as other machines reach it; its hostname goes into every chain URL handed out (absent: the Host header each client sends, on a wildcard host). */
  publicUrl: z
    .string()
    .url()
    .refine((url) => !URL.canParse(url) || /^https?:$/.test(new URL(url).protocol), 'must be an http:// or https:// URL')
    .optional(),
  /** A fixed port by chain id: its RPC (or API) there, a second server (Solana's websocket, Bitcoin's Esplora) on the next one. */
  chainPorts: z.record(z.string().regex(/^[0-9]+$/, 'a chain id'), z.number().int().min(1).max(65535)).default({}),
  port: z.number().int().min(0).max(65535).default(DEFAULT_PORT),
  /** SQLite file. Omitted: a fresh temporary file each run. Given: state (chains included) survives restarts. */
  dbPath: z.string().optional(),
  /** Where chain logs and chain state live. Defaults beside dbPath, or a temporary directory. */
  dataDir: z.string().optional(),
  seed: z.number().int().min(0).default(1),
  chains: z
    .array(ChainConfigSchema)
    .min(1)
    .default(DEFAULT_CHAIN_IDS.map((id) => ({ id, resetOnStart: false })))
    .refine((chains) => new Set(chains.map((c) => c.id)).size === chains.length, 'chain ids must be unique'),
  /** Explicit Anvil binary (the INTENTSIM_ANVIL environment variable). */
  anvilPath: z.string().optional(),
  /** Directories searched for `anvil` last (the PATH environment variable). */
  anvilSearchPath: z.string().optional(),
  /** Every account of every chain derives from it (BIP-39, English word list, checksum checked). */
  mnemonic: z
    .string()
    .refine((mnemonic) => validateMnemonic(mnemonic.trim(), englishWordlist), 'must be a BIP-39 mnemonic (English words, valid checksum)')
    .default(DEFAULT_MNEMONIC),
  accountCount: z.number().int().min(1).max(100).default(10),
  /** Keep each chain's genesis between starts and load it instead of building it again (docs/start.md); off: every start deploys and mines it. */
  keptGenesis: z.boolean().default(true),
  /** Service fee charged on every quote, in basis points of the input. */
  serviceFeeBps: z.number().int().min(0).max(1000).default(10),
  /** Slippage tolerance used when a quote names none, in basis points. */
  defaultSlippageBps: z.number().int().min(0).max(10_000).default(50),
  /** Milliseconds a chain RPC call made while quoting may take before the quote answers REQUEST_TIMED_OUT (SPEC §7.1). */
  quoteRpcTimeoutMs: z.number().int().positive().default(2000),
  /** Milliseconds a whole HTTP request (headers and body) may take to arrive before it is answered 408. */
  httpRequestTimeoutMs: z.number().int().positive().default(30_000),
  /** Seconds a quote stays valid: its order's deadline; a deposit indexed later is refunded (ORDER_EXPIRED). */
  quoteTtlSeconds: z.number().int().positive().default(300),
  /** Seconds a broadcast fill may go unseen by its chain (re-broadcast with higher fees meanwhile) before TRANSACTION_NOT_INCLUDED. */
  fillInclusionWindowSeconds: z.number().int().positive().default(120),
  clockMode: z.enum(['real', 'manual']).default('real'),
  /** Where the virtual clock starts, unix milliseconds (default: the machine's time at start). */
  clockStartMs: z.number().int().min(0).max(8.64e15).optional(),
  /** What the solver does with a confirmed deposit: `fill` at once, or `hold` until told. */
  solverPolicy: z.enum(['fill', 'hold']).default('fill'),
  /** Milliseconds between chain polls, a fallback to the websocket block subscription. */
  chainPollIntervalMs: z.number().int().positive().default(1000),
  /** The BVM chain mines a block every this many seconds of the virtual clock; 0: only on `generatetoaddress` (docs/chains/bitcoin.md ("The Bitcoin-style chain")). */
  bvmBlockTimeSeconds: z.number().int().min(0).max(86_400).default(0),
  /** Confirmations a deposit needs before the solver fills it, by chain id (absent: 1); only Bitcoin-style chains take another count (docs/chains/bitcoin.md). */
  depositConfirmations: z.record(z.string().regex(/^[0-9]+$/, 'a chain id'), z.number().int().min(1).max(100)).default({}),
  /** How the SVM chain runs: LiteSVM in this process (`embedded`), or a `solana-test-validator` spawned and reached over RPC (`validator`). */
  svmRuntime: z.enum(['embedded', 'validator']).default('embedded'),
  /** Explicit `solana-test-validator` binary for `svmRuntime: validator` (the INTENTSIM_SOLANA_TEST_VALIDATOR environment variable). */
  solanaTestValidatorPath: z.string().optional(),
  /** Chains run as forks of an upstream chain: its http(s) JSON-RPC URL by chain id (docs/forking.md). */
  fork: z.record(z.string().regex(/^[0-9]+$/, 'a chain id'), z.string().refine(isHttpUrl, 'must be an http(s) URL')).default({}),
  /** The upstream block a forked chain starts from, by chain id (absent: the upstream's latest). */
  forkBlock: z.record(z.string().regex(/^[0-9]+$/, 'a chain id'), z.number().int().min(0)).default({}),
  /** Webhook endpoint of the default API key, set at start (SPEC §6.1; the admin API changes it later). */
  webhook: WebhookEndpointSettingsSchema.optional(),
  /** Milliseconds a webhook receiver has to answer one delivery attempt (connect, headers, body). */
  webhookTimeoutMs: z.number().int().positive().default(10_000),
  /** `GET /requests/v3` requests a key may make per second (SPEC §8: 20, the elevated rate); more answer 429 with `Retry-After`. */
  listingRatePerSecond: z.number().int().min(1).max(1_000_000).default(20),
  /** Wait before the first webhook retry, doubled on each further retry (SPEC §6.2). */
  webhookRetryBaseMs: z.number().int().positive().default(DEFAULT_WEBHOOK_RETRY_BASE_MS),
});

export type SimulatorConfig = z.infer<typeof SimulatorConfigSchema>;
export type SimulatorConfigInput = z.input<typeof SimulatorConfigSchema>;

export interface ResolvedChainConfig {
  id: number;
  vm: VmType;
  name: string;
  displayName: string;
  rpcUrl: string | undefined;
  resetOnStart: boolean;
  /** `--chain-port`: its first server's port (checked by resolveChainPorts); undefined: free ports. */
  port: number | undefined;
}

export function resolveChains(config: SimulatorConfig): ResolvedChainConfig[] {
  return config.chains.map((chain) => {
    const known = chainMetadataFor(chain.id);
    return {
      id: chain.id,
      vm: chain.vm ?? known.vm,
      name: chain.name ?? known.name,
      displayName: chain.displayName ?? known.displayName,
      rpcUrl: chain.rpcUrl,
      resetOnStart: chain.resetOnStart,
      port: config.chainPorts[String(chain.id)],
    };
  });
}

/**
 * `depositConfirmations` by chain id, each naming a configured chain whose kind counts
 * confirmations (`countsConfirmations`: the chain kind's fact, chains/chainKinds.ts; Bitcoin-style
 * chains). The other chains fill on their first confirmation; a count for them would be silently ignored.
 */
export function resolveDepositConfirmations(config: SimulatorConfig, countsConfirmations: (vm: VmType) => boolean): Record<number, number> {
  const chains = resolveChains(config);
  return Object.fromEntries(
    Object.entries(config.depositConfirmations).map(([id, count]) => {
      const chain = chains.find((candidate) => candidate.id === Number(id));
      if (!chain) throw new ConfigError(`invalid configuration: depositConfirmations: chain ${id} is not configured`);
      if (!countsConfirmations(chain.vm) && count !== 1) throw new ConfigError(`invalid configuration: depositConfirmations: chain ${id} (${chain.vm}) fills after its first confirmation; only Bitcoin-style (bvm) chains take another count`);
      return [chain.id, count];
    }),
  );
}

/** One forked chain's upstream: its URL and the block to fork at (absent: its latest, or its current state). */
export interface ForkUpstream {
  url: string;
  blockNumber?: number;
}

/** What resolveForks asks of a chain's kind (its ChainKindFacts.fork). */
export interface ForkRules {
  upstream: string;
  pinsBlock: boolean;
  journaled: boolean;
}

/**
 * `fork` and `forkBlock` as one upstream per chain id, by kind, each naming a configured chain run
 * by this simulator (not attached by `rpcUrl`); `--fork-block` only where the kind pins a block,
 * `--db` only where the kind's fork is journaled (`rulesOf`: the chain kind's facts; every kind now,
 * chains/chainKinds.ts).
 */
export function resolveForks(config: SimulatorConfig, rulesOf: (vm: VmType) => ForkRules): Record<VmType, Record<number, ForkUpstream>> {
  const chains = resolveChains(config);
  for (const id of Object.keys(config.forkBlock)) {
    if (config.fork[id] === undefined) throw new ConfigError(`invalid configuration: --fork-block ${id}=${config.forkBlock[id]}: chain ${id} has no --fork`);
  }
  const forks: Record<VmType, Record<number, ForkUpstream>> = { evm: {}, svm: {}, bvm: {}, lvm: {} };
  for (const [id, url] of Object.entries(config.fork)) {
    const chain = chains.find((candidate) => candidate.id === Number(id));
    if (!chain) throw new ConfigError(`invalid configuration: --fork ${id}=…: chain ${id} is not configured (--chains)`);
    const rules = rulesOf(chain.vm);
    if (chain.rpcUrl) throw new ConfigError(`invalid configuration: --fork ${id}=…: chain ${id} attaches to the node at ${chain.rpcUrl}; a forked chain runs its own node`);
    const blockNumber = config.forkBlock[id];
    if (blockNumber !== undefined && !rules.pinsBlock) {
      throw new ConfigError(`invalid configuration: --fork-block ${id}=${blockNumber}: chain ${id} is a ${chain.vm} chain, whose fork reads its upstream's current state (no public ${rules.upstream.replace(/^an? /, '')} serves past state); drop --fork-block`);
    }
    if (config.dbPath !== undefined && !rules.journaled) {
      throw new ConfigError(`invalid configuration: --fork ${id}=… with --db: a forked ${chain.vm} chain's state is not journaled yet; run it without --db`);
    }
    forks[chain.vm][chain.id] = { url, ...(blockNumber === undefined ? {} : { blockNumber }) };
  }
  return forks;
}

/** The environment variables the simulator reads (docs/options.md ("Options")), from the flag table. */
export const ENVIRONMENT_VARIABLES: Readonly<Record<string, string>> = simulatorEnvironmentVariables();

function configFromEnvironment(env: NodeJS.ProcessEnv): Partial<SimulatorConfigInput> {
  const out: Record<string, unknown> = {};
  for (const flag of CONFIG_FLAGS) {
    const value = flag.env === undefined ? undefined : env[flag.env];
    if (value === undefined || value === '') continue;
    try {
      out[flag.key] = flag.parse ? flag.parse(value) : value;
    } catch (error) {
      throw new ConfigError(`invalid configuration: ${flag.key}: ${error instanceof Error ? error.message : String(error)} (from ${flag.env})`);
    }
  }
  return out as Partial<SimulatorConfigInput>;
}

/** The defaults of every key, as the schema gives them (help text and docs/options.md read these). */
export function configDefaults(): SimulatorConfig {
  return SimulatorConfigSchema.parse({});
}

function configFromFile(path: string): Partial<SimulatorConfigInput> {
  const text = readFileSync(path, 'utf8');
  const parsed: unknown = path.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(`config file ${path} must hold an object`);
  return parsed as Partial<SimulatorConfigInput>;
}

/**
 * Merges, lowest precedence first: defaults, the config file, the environment, explicit
 * options (CLI flags or `startSimulator` options). The one place that reads process.env.
 */
export function loadSimulatorConfig(params: {
  options?: Partial<SimulatorConfigInput>;
  configFile?: string;
  env?: NodeJS.ProcessEnv;
}): SimulatorConfig {
  const merged = {
    ...(params.configFile ? configFromFile(params.configFile) : {}),
    ...configFromEnvironment(params.env ?? process.env),
    ...Object.fromEntries(Object.entries(params.options ?? {}).filter(([, v]) => v !== undefined)),
  };
  const result = SimulatorConfigSchema.safeParse(merged);
  if (!result.success) {
    throw new ConfigError(
      'invalid configuration: ' + result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
    );
  }
  return result.data;
}
