import type { ChainAdapter } from '../chains/ChainAdapter';
import { requireCapability } from '../chains/capabilities/requireCapability';
import type { Currency } from '../domain/chain/currency';
import { IntentsimError } from '../errors/IntentsimError';
import type { CommittedStatusChange } from '../events/RequestEventBus';
import type { RunningSimulator } from '../simulator';
import type { ReceivedWebhook } from './ScenarioWebhookReceiver';
import type { Scenario } from './scenarioSchema';

/** A step that cannot go on (a quote refused, a reference to nothing): the scenario stops there. */
export class ScenarioStepError extends IntentsimError {}

/** A quote the scenario named, and what it answered. */
export interface NamedQuote {
  alias: string;
  index: number;
  requestId: string;
  user: string;
  originChainId: number;
  destinationChainId: number;
  originCurrency: Currency;
  /** details.currencyIn.amount: what the quote asks the user to pay. */
  amountIn: bigint;
  depositAddress: string | undefined;
  /** The hash of the last deposit a `deposit` step sent for it (what `doubleSpend` spends again). */
  lastDepositTxHash?: string;
  steps: Array<{ id: string; items: Array<{ data: Record<string, unknown> }> }>;
}

/** A deposit named with `as`: its request record is found by the deposit's hash once it is indexed. */
export interface NamedDeposit {
  alias: string;
  index: number;
  txHash: string;
  /** The quote it named (the record of a second deposit copies its quote). */
  quote: NamedQuote;
}

/** A contract a `deployContract` step deployed and named. */
export interface NamedContract {
  alias: string;
  chainId: number;
  /** The fixture contract it is (fixtures/contracts): its ABI encodes calls to it. */
  fixture: string;
  address: string;
}

/** A chain snapshot a `snapshot` step took and named (a `revert` step returns to it). */
export interface NamedSnapshot {
  /** The chain's; undefined: the whole world's. */
  chainId: number | undefined;
  id: string;
  /** A world snapshot taken with `keep: true`: a revert leaves it usable. */
  keep: boolean;
}

/** The scenario's view of one run: the simulator, the names it gave, and what it has seen. */
export interface ScenarioRunState {
  sim: RunningSimulator;
  quotes: Map<string, NamedQuote>;
  statuses: Map<string, CommittedStatusChange[]>;
  webhooks: ReceivedWebhook[];
  /** Deposits named with `as` whose record has not been looked up yet. */
  deposits: Map<string, NamedDeposit>;
  /** Contracts deployed by `deployContract`, by name. */
  contracts: Map<string, NamedContract>;
  /** Chains whose automine a step switched off (a fill sent there waits in the pool until mined). */
  automineOff: Set<number>;
  /** Chain snapshots by name (`snapshot` steps). */
  snapshots: Map<string, NamedSnapshot>;
  /** The scenario's forked chains (`fork:`), by chain id: what `solverAsUpstream` reads the upstream at. */
  fork?: Scenario['fork'];
  /** Takes the status changes a request made before the scenario knew its name (the quote's `waiting`). */
  claimChanges(quote: NamedQuote): void;
}

export function quoteNamed(state: Pick<ScenarioRunState, 'quotes'>, alias: string): NamedQuote {
  const quote = state.quotes.get(alias);
  if (!quote) throw new ScenarioStepError(`no quote named "${alias}" was answered (did its quote step fail?)`);
  return quote;
}

/**
 * The request a name stands for: a quote's, or the record a named deposit ended up in (looked up
 * once by the deposit's hash, SPEC §4.3 `depositTxHash`, and named from then on).
 */
export async function requestNamed(state: ScenarioRunState, alias: string): Promise<NamedQuote> {
  const known = state.quotes.get(alias);
  if (known) return known;
  const deposit = state.deposits.get(alias);
  if (!deposit) return quoteNamed(state, alias);
  const response = await fetch(`${state.sim.baseUrl}/requests/v3?depositTxHash=${deposit.txHash}`, { headers: { 'x-api-key': state.sim.apiKey } });
  const found = ((await response.json()) as { requests?: Array<{ id: string }> }).requests?.find((record) => record.id.toLowerCase() !== deposit.quote.requestId);
  if (!found) throw new ScenarioStepError(`no request record of its own holds deposit ${deposit.txHash} ("${alias}")`);
  const named: NamedQuote = { ...deposit.quote, alias, index: deposit.index, requestId: found.id.toLowerCase() };
  state.quotes.set(alias, named);
  state.deposits.delete(alias);
  state.claimChanges(named);
  return named;
}

/**
 * `N` / `account:N`: a test account; `fresh:NAME`: an unused address named NAME; `contract:NAME`:
 * a contract a `deployContract` step named, or one of the chain's own (`serviceReceiver`,
 * `depository`, `pool`, …); `currency:SYMBOL`: a currency's address on the chain; anything else:
 * as written.
 */
export function resolveAddress(sim: RunningSimulator, chain: ChainAdapter, ref: number | string, contracts?: ReadonlyMap<string, NamedContract>): string {
  const account = typeof ref === 'number' ? ref : /^account:(\d+)$/.exec(ref)?.[1];
  if (account !== undefined) return testAccountOf(sim, chain, Number(account)).address;
  if (typeof ref === 'string' && ref.startsWith('fresh:')) return requireCapability(chain, 'userWallet', `the address of ${ref}`).addressForLabel(ref.slice('fresh:'.length));
  if (typeof ref === 'string' && ref.startsWith('contract:')) return contractAddressOf(chain, ref.slice('contract:'.length), contracts);
  if (typeof ref === 'string' && ref.startsWith('currency:')) return resolveCurrency(chain, ref.slice('currency:'.length)).address;
  return String(ref);
}

/** The chain's own contracts by name: what it describes (`serviceReceiver`, `depository`, `multicall3`, …) and its first `pool`. */
export function chainContracts(chain: ChainAdapter): Record<string, string> {
  const described = chain.describe();
  const own: Record<string, string> = { depository: described.depository };
  for (const [name, address] of Object.entries(described.contracts)) if (typeof address === 'string') own[name] = address;
  const pool = chain.liquidity().pools[0];
  if (pool) own.pool = pool.address;
  return own;
}

/** The address of contract NAME: one a step deployed on this chain, else one of the chain's own. */
export function contractAddressOf(chain: ChainAdapter, name: string, contracts?: ReadonlyMap<string, NamedContract>): string {
  const deployed = contracts?.get(name);
  if (deployed) {
    if (deployed.chainId !== chain.chainId) throw new ScenarioStepError(`contract "${name}" was deployed on chain ${deployed.chainId}, not ${chain.chainId}`);
    return deployed.address;
  }
  const own = chainContracts(chain);
  if (own[name]) return own[name];
  throw new ScenarioStepError(`no contract named "${name}" on chain ${chain.chainId} (deployed: ${[...(contracts?.keys() ?? [])].join(', ') || 'none'}; the chain's own: ${Object.keys(own).join(', ')})`);
}

/**
 * The funded test accounts of one chain, in the chain's own encoding: those the chain describes
 * (`fundedAccounts`: the SVM keypairs, the BVM p2wpkh keys, the exchange's accounts owned by the
 * EVM accounts), else the simulator's EVM accounts. `account:N` is entry N of this list.
 */
export function testAccountsOf(sim: RunningSimulator, chain: ChainAdapter): ReadonlyArray<{ address: string; privateKey: string }> {
  return chain.describe().fundedAccounts ?? sim.accounts;
}

function testAccountOf(sim: RunningSimulator, chain: ChainAdapter, index: number): { address: string; privateKey: string } {
  const accounts = testAccountsOf(sim, chain);
  const found = accounts[index];
  if (!found) throw new ScenarioStepError(`there is no test account ${index} on chain ${chain.chainId} (accounts 0..${accounts.length - 1})`);
  return found;
}

/** The key of a test account on `chain` (by index, `account:N`, or its address there): what its wallet signs with. */
export function privateKeyOf(sim: RunningSimulator, chain: ChainAdapter, ref: number | string): string {
  if (typeof ref === 'number') return testAccountOf(sim, chain, ref).privateKey;
  const index = /^account:(\d+)$/.exec(ref)?.[1];
  if (index !== undefined) return testAccountOf(sim, chain, Number(index)).privateKey;
  const normalized = chain.isValidAddress(ref) ? chain.normalizeAddress(ref) : undefined;
  const found = testAccountsOf(sim, chain).find((account) => normalized !== undefined && chain.normalizeAddress(account.address) === normalized);
  if (!found) throw new ScenarioStepError(`${ref} is not a test account on chain ${chain.chainId}: only test accounts can send`);
  return found.privateKey;
}

/** A currency by symbol (`ETH`/`native`, `USDC`, `WETH`, …) or address on one chain. */
export function resolveCurrency(chain: ChainAdapter, ref: string): Currency {
  const described = chain.describe();
  const all = [described.nativeCurrency, ...described.erc20Currencies];
  if (ref.toLowerCase() === 'native') return described.nativeCurrency;
  const found = all.find((currency) => currency.symbol.toLowerCase() === ref.toLowerCase()) ?? chain.findCurrency(ref);
  if (!found) throw new ScenarioStepError(`chain ${chain.chainId} has no currency ${ref} (it has ${all.map((currency) => currency.symbol).join(', ')})`);
  return found;
}
