import { ConfigurationError } from '../errors/IntentsimError';
/**
 * The one flag table (STYLE: "each flag has a default, an environment variable and help text").
 * The CLI's options and `--help`, the environment the config reads and docs/options.md's table
 * (`npm run options-doc`) all come from here; defaults come from the config schema (`SimulatorConfigSchema`).
 */

/** Turns a flag's or an environment variable's text into the config value; throws with a reason. */
export type FlagParser = (text: string) => unknown;

export interface ConfigFlag {
  /** The config key the flag sets (`startSimulator` option / config file key). */
  key: string;
  /** Commander's flag spelling, e.g. `--port <n>`; absent: environment or config file only. */
  flag?: string;
  /** The environment variable read for it, e.g. `INTENTSIM_PORT`. */
  env?: string;
  help: string;
  /** How the default reads in help and docs/options.md when it is not a plain value. */
  defaultLabel?: string;
  parse?: FlagParser;
  /** The flag may be given more than once: each value parses to an object, and the objects are merged (`--fork 1=… --fork 8453=…`). */
  repeatable?: boolean;
}

export class FlagValueError extends ConfigurationError {}

export function parseNonNegativeInteger(text: string): number {
  if (!/^[0-9]+$/.test(text)) throw new FlagValueError('must be a non-negative integer');
  return Number(text);
}

export function parseChainIdList(text: string): Array<{ id: number }> {
  const ids = text.split(',').map((part) => part.trim());
  if (ids.some((id) => !/^[0-9]+$/.test(id) || Number(id) === 0)) throw new FlagValueError('must be comma-separated chain ids, e.g. 1,8453,42161');
  return ids.map((id) => ({ id: Number(id) }));
}

/** `8253038=2` or `8253038=2,1=3`: confirmations by chain id. */
export function parseChainCounts(text: string): Record<string, number> {
  const pairs = text.split(',').map((part) => part.trim().match(/^([0-9]+)=([0-9]+)$/));
  if (pairs.some((pair) => !pair)) throw new FlagValueError('must be comma-separated chainId=count pairs, e.g. 8253038=2');
  return Object.fromEntries(pairs.map((pair) => [pair![1]!, Number(pair![2])]));
}

/** `8453=https://base-rpc.example`: one chain's upstream URL (http or https). */
export function parseChainUrl(text: string): Record<string, string> {
  const match = text.trim().match(/^([0-9]+)=(.+)$/);
  if (!match || Number(match[1]) === 0 || !isHttpUrl(match[2]!)) throw new FlagValueError('must be chainId=URL with an http(s) URL, e.g. 8453=https://base-rpc.example');
  return { [match[1]!]: match[2]! };
}

/** `8453=23000000`: one chain's block number. */
export function parseChainBlock(text: string): Record<string, number> {
  const match = text.trim().match(/^([0-9]+)=([0-9]+)$/);
  if (!match || Number(match[1]) === 0 || !Number.isSafeInteger(Number(match[2]))) throw new FlagValueError('must be chainId=blockNumber, e.g. 8453=23000000');
  return { [match[1]!]: Number(match[2]) };
}

/** Whether `text` is an http: or https: URL (what a fork's upstream is reached over). */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** `1=8545` or `1=8545,8453=8546`: a fixed port by chain id (docs/shared-host.md ("Ports")). */
export function parseChainPorts(text: string): Record<string, number> {
  const pairs = text.split(',').map((part) => part.trim().match(/^([0-9]+)=([0-9]+)$/));
  if (pairs.some((pair) => !pair || Number(pair[2]) < 1 || Number(pair[2]) > 65535)) throw new FlagValueError('must be CHAIN=PORT (a chain id and a port 1-65535), e.g. 1=8545');
  const ports: Record<string, number> = {};
  for (const pair of pairs) {
    if (ports[pair![1]!] !== undefined) throw new FlagValueError(`chain ${pair![1]} is given two ports`);
    ports[pair![1]!] = Number(pair![2]);
  }
  return ports;
}

/** `on` / `off` → true / false. */
export function parseOnOff(text: string): boolean {
  if (text !== 'on' && text !== 'off') throw new FlagValueError('must be on or off');
  return text === 'on';
}

export function parseOneOf(values: readonly string[]): FlagParser {
  return (text) => {
    if (!values.includes(text)) throw new FlagValueError(`must be one of ${values.join(', ')}`);
    return text;
  };
}

export const CONFIG_FLAGS: readonly ConfigFlag[] = [
  { key: 'port', flag: '--port <n>', env: 'INTENTSIM_PORT', parse: parseNonNegativeInteger, help: 'HTTP port of the API; 0 picks any free port' },
  {
    key: 'host',
    flag: '--host <host>',
    help: "address the API and every chain's servers bind; 0.0.0.0 or :: shares the simulator over the network (docs/shared-host.md)",
  },
  {
    key: 'publicUrl',
    flag: '--public-url <url>',
    env: 'INTENTSIM_PUBLIC_URL',
    defaultLabel: 'the Host each client reached the API by',
    help: "the API's URL as other machines reach it (a port mapping, a proxy); its hostname is used in every chain URL handed out",
  },
  {
    key: 'chainPorts',
    flag: '--chain-port <chain=port>',
    env: 'INTENTSIM_CHAIN_PORTS',
    parse: parseChainPorts,
    repeatable: true,
    defaultLabel: 'free ports',
    help: "fix a chain's port (repeatable; for docker -p): its RPC on PORT; Solana's websocket and Bitcoin's Esplora on PORT+1",
  },
  {
    key: 'dbPath',
    flag: '--db <file>',
    env: 'INTENTSIM_DB',
    defaultLabel: 'a fresh temporary file',
    help: 'SQLite file; when given, requests and chain state survive a restart',
  },
  { key: 'seed', flag: '--seed <n>', env: 'INTENTSIM_SEED', parse: parseNonNegativeInteger, help: 'seed of the one RNG and of request ids' },
  { key: 'chains', flag: '--chains <ids>', parse: parseChainIdList, defaultLabel: '1,8453,42161,792703809,8253038,3586256', help: 'comma-separated chain ids; known ids (1, 10, 137, 8453, 42161; 792703809 = Solana, 8253038 = Bitcoin, 3586256 = Lighter) get their names and VM' },
  { key: 'dataDir', flag: '--data-dir <dir>', env: 'INTENTSIM_DATA_DIR', defaultLabel: 'beside the db, or temporary', help: 'where chain logs and chain state go' },
  {
    key: 'anvilPath',
    flag: '--anvil <path>',
    env: 'INTENTSIM_ANVIL',
    defaultLabel: "the binary of this platform's @foundry-rs/anvil-<os>-<cpu> package, else anvil on PATH",
    help: 'the anvil binary to run',
  },
  { key: 'clockMode', flag: '--clock <mode>', parse: parseOneOf(['real', 'manual']), help: 'real: the virtual clock follows the machine; manual: time moves only when told' },
  { key: 'clockStartMs', flag: '--clock-start <unix-ms>', parse: parseNonNegativeInteger, defaultLabel: "the machine's time", help: 'where the virtual clock starts, unix milliseconds (scenarios pin it)' },
  { key: 'solverPolicy', flag: '--solver-policy <policy>', parse: parseOneOf(['fill', 'hold']), help: 'fill: fill deposits at once; hold: index them and wait (docs/requests.md, "Solver rules")' },
  { key: 'serviceFeeBps', flag: '--service-fee-bps <n>', parse: parseNonNegativeInteger, help: 'service fee, basis points of the input' },
  { key: 'defaultSlippageBps', flag: '--default-slippage-bps <n>', parse: parseNonNegativeInteger, help: 'slippage tolerance when a quote names none, basis points' },
  { key: 'quoteTtlSeconds', flag: '--quote-ttl <seconds>', parse: parseNonNegativeInteger, help: 'seconds a quote stays valid; a deposit indexed later is refunded (ORDER_EXPIRED)' },
  {
    key: 'fillInclusionWindowSeconds',
    flag: '--fill-inclusion-window <seconds>',
    parse: parseNonNegativeInteger,
    help: 'a fill its chain has not seen is re-broadcast with higher fees every quarter of this, then fails (TRANSACTION_NOT_INCLUDED)',
  },
  { key: 'quoteRpcTimeoutMs', flag: '--quote-rpc-timeout <ms>', parse: parseNonNegativeInteger, help: 'a chain RPC call slower than this while quoting answers 400 REQUEST_TIMED_OUT' },
  { key: 'httpRequestTimeoutMs', flag: '--http-request-timeout <ms>', parse: parseNonNegativeInteger, help: 'a request whose headers and body have not all arrived by then is answered 408' },
  { key: 'accountCount', flag: '--accounts <n>', parse: parseNonNegativeInteger, help: 'funded test accounts derived from the mnemonic' },
  {
    key: 'keptGenesis',
    flag: '--kept-genesis <mode>',
    env: 'INTENTSIM_KEPT_GENESIS',
    parse: parseOnOff,
    defaultLabel: 'on',
    help: "on: a spawned EVM chain's deployment is kept (OS temp dir) and the next start with the same inputs loads it instead of deploying again; off: deployed at every start (docs/start.md, \"The kept genesis\")",
  },
  { key: 'mnemonic', flag: '--mnemonic <words>', defaultLabel: "Anvil's test mnemonic", help: 'mnemonic of the test accounts, the solver and the deployer' },
  { key: 'chainPollIntervalMs', flag: '--chain-poll-interval <ms>', parse: parseNonNegativeInteger, help: 'chain poll interval, a fallback to the websocket block subscription' },
  {
    key: 'bvmBlockTimeSeconds',
    flag: '--bvm-block-time <seconds>',
    parse: parseNonNegativeInteger,
    help: 'the Bitcoin chain (8253038) mines a block every this many seconds of the virtual clock; 0: only on generatetoaddress',
  },
  {
    key: 'depositConfirmations',
    flag: '--deposit-confirmations <chain=n,…>',
    parse: parseChainCounts,
    defaultLabel: '1 on every chain',
    help: 'confirmations a deposit needs before the solver fills it, per chain (e.g. 8253038=2; Bitcoin-style chains only); a reorg before then leaves it unfilled',
  },
  {
    key: 'svmRuntime',
    flag: '--svm <runtime>',
    env: 'INTENTSIM_SVM',
    parse: parseOneOf(['embedded', 'validator']),
    help: 'the Solana chain (792703809): embedded runs LiteSVM in-process; validator spawns solana-test-validator and talks to it over RPC (docs/chains/solana.md)',
  },
  {
    key: 'solanaTestValidatorPath',
    flag: '--solana-test-validator <path>',
    env: 'INTENTSIM_SOLANA_TEST_VALIDATOR',
    defaultLabel: 'solana-test-validator on PATH',
    help: 'the solana-test-validator binary --svm validator runs',
  },
  {
    key: 'fork',
    flag: '--fork <chain=url>',
    parse: parseChainUrl,
    repeatable: true,
    defaultLabel: 'none',
    help: "run that chain as a fork of the chain behind the URL: its accounts, contracts and balances are read from there, nothing is sent there (repeatable; an EVM or Solana JSON-RPC URL, a Bitcoin chain's Esplora URL, a Lighter API URL; docs/forking.md)",
  },
  {
    key: 'forkBlock',
    flag: '--fork-block <chain=n>',
    parse: parseChainBlock,
    repeatable: true,
    defaultLabel: "the upstream's latest block",
    help: 'the block a forked chain starts from (repeatable; needs --fork for that chain)',
  },
  { key: 'webhookTimeoutMs', flag: '--webhook-timeout <ms>', parse: parseNonNegativeInteger, help: 'a webhook attempt without a complete answer by then failed (and is retried)' },
  { key: 'listingRatePerSecond', flag: '--listing-rate <n>', parse: parseNonNegativeInteger, help: 'GET /requests/v3 requests per second per API key (SPEC §8); more answer 429 with Retry-After' },
  { key: 'webhookRetryBaseMs', flag: '--webhook-retry-base <ms>', parse: parseNonNegativeInteger, help: 'wait before the first webhook retry, doubled on each further retry' },
  { key: 'anvilSearchPath', env: 'PATH', defaultLabel: 'the PATH of the process', help: 'directories searched for anvil when neither --anvil nor the package gives one, and for solana-test-validator (--svm validator)' },
];

/** The simulator's own environment variables (`INTENTSIM_*`), by name → config key (docs/options.md). */
export function simulatorEnvironmentVariables(): Record<string, string> {
  return Object.fromEntries(CONFIG_FLAGS.filter((flag) => flag.env?.startsWith('INTENTSIM_')).map((flag) => [flag.env!, flag.key]));
}
