import { getAddress, type PublicClient, type TestClient } from 'viem';
import type { ChainMetadata } from '../../../fixtures/chains';
import type { VirtualClock } from '../../clock/VirtualClock';
import type { Currency } from '../../domain/chain/currency';
import type { ChainIndexStore } from '../../store/ChainIndexStore';
import type { DepositAddressStore } from '../../store/DepositAddressStore';
import type { SolverTxStore } from '../../store/SolverTxStore';
import type { ChainObservation } from '../ChainAdapter';
import type { SimulatorAccounts } from '../../keys/simulatorAccounts';
import type { AnvilEndpoints } from './AnvilInstance';
import { calibrateGas, type GasCalibration } from './calibrateGas';
import { deploySimulatorContracts, fundDeployerAndSolver, simulatorContractAddresses, type SimulatorContracts } from './deploySimulatorContracts';
import type { KeptDeployment } from './keptDeployment';
import { evmErc20Currencies, evmNativeCurrency } from './evmCurrencies';
import { EvmDepositAddresses } from './EvmDepositAddresses';
import { EvmDepositSteps } from './EvmDepositSteps';
import { EvmDepositWatcher } from './EvmDepositWatcher';
import { EvmSolverWallet } from './EvmSolverWallet';
import { EvmRelayer } from './EvmRelayer';
import { installBatchExecutor } from './installBatchExecutor';
import { prepareForkedChain } from './prepareForkedChain';
import { EvmTransactionFacts } from './EvmTransactionFacts';
import type { EvmChainJournal } from './EvmChainJournal';

/** Every part of a started EVM chain, each with one job, all built at once when the chain starts. */
export interface StartedEvmChain {
  endpoints: AnvilEndpoints;
  client: PublicClient;
  testClient: TestClient;
  contracts: SimulatorContracts;
  gas: GasCalibration;
  nativeCurrency: Currency;
  erc20Currencies: Currency[];
  wallet: EvmSolverWallet;
  /** SPEC §1.6 gasless execution: submits users' calls and signed deposits, paying their gas. */
  relayer: EvmRelayer;
  watcher: EvmDepositWatcher;
  depositAddresses: EvmDepositAddresses;
  steps: EvmDepositSteps;
  facts: EvmTransactionFacts;
  /** How the contracts got there: sent now, loaded from this node's kept deployment or from the kept genesis, or found already there (a node that kept its state). */
  deployment: 'deployed' | 'loaded' | 'kept-genesis' | 'found';
  /** Base fee of the latest block plus the node's priority fee. */
  effectiveGasPrice(): bigint;
  fees(): { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
}

export interface StartEvmChainParams {
  metadata: ChainMetadata;
  endpoints: AnvilEndpoints;
  client: PublicClient;
  testClient: TestClient;
  accounts: SimulatorAccounts;
  clock: VirtualClock;
  chainIndex: ChainIndexStore;
  solverTransactions: SolverTxStore;
  depositAddressStore: DepositAddressStore;
  pollIntervalMs: number;
  emit: (observation: ChainObservation) => void;
  /** New blocks were indexed (or a reorg replaced some): the chain's state changed. */
  onBlocksIndexed?: () => void;
  onFatalError: (error: Error) => void;
  /** A solver payment's receipt came (a durable chain indexes its block now, before any record points at it). */
  afterSolverReceipt?: () => Promise<void>;
  /** With a database: blocks are journaled, and those a killed node lost are mined again first. */
  journal?: EvmChainJournal;
  /** The node is a fork of an upstream chain: it is made ready for the deployment first (prepareForkedChain.ts). */
  forked?: boolean;
  /** Where the deployment is loaded from, or kept once sent (keptDeployment.ts): a node reset on attach keeps it for the process, a node spawned fresh in the kept genesis. */
  keptDeployment?: KeptDeployment;
}

/**
 * The simulator's contracts on the node, and the gas each operation takes there: loaded from the
 * node's kept deployment when it has one (a node reset on attach, deployed on earlier in this
 * process) or from the kept genesis (a node spawned fresh, deployed on at an earlier start), else
 * deployed (or found, on a node that kept its state) and measured.
 */
async function deployOrLoad(params: StartEvmChainParams): Promise<{ contracts: SimulatorContracts; gas: GasCalibration; deployment: StartedEvmChain['deployment'] }> {
  const { metadata, client, testClient, accounts } = params;
  const keeper = params.keptDeployment;
  const kept = keeper?.read();
  if (kept) {
    await testClient.loadState({ state: kept.state });
    // Anvil resumes a loaded chain's clock at its newest block (an offset behind the wall clock, rounded
    // down a second), where a freshly deployed one runs on the wall clock: the offset goes back to zero
    const offset = Number(await testClient.increaseTime({ seconds: 0 }));
    if (offset < 0) await testClient.increaseTime({ seconds: -offset });
    return { contracts: simulatorContractAddresses(accounts.deployer.address, accounts.testAccounts.length), gas: kept.gas, deployment: keeper!.from };
  }
  // a fork: the upstream's use of the simulator's keys is undone locally before anything is deployed
  if (params.forked) await prepareForkedChain({ client, testClient, accounts, chainId: metadata.id });
  // the batch executor is a cheat call (no block): first, so a chain mined again from its journal
  // has it from the same point on as the first run had (after it, every block's state root matches)
  await installBatchExecutor({ client, testClient });
  // a node killed before it saved its state comes back short: mine the lost blocks again first
  // (from genesis, or a fork's pinned block, after the cheat-call funding the deployment started from)
  if (params.journal?.hasBlocksAfter(Number(await client.getBlockNumber({ cacheTime: 0 })))) {
    if ((await client.getBlockNumber({ cacheTime: 0 })) === BigInt(params.journal.startNumber())) await fundDeployerAndSolver({ testClient, nativeSymbol: metadata.nativeSymbol, accounts });
    await params.journal.replay();
  }
  const { contracts, deployedNow } = await deploySimulatorContracts({ publicClient: client, testClient, chainId: metadata.id, nativeSymbol: metadata.nativeSymbol, accounts });
  const gas = await calibrateGas({ client, contracts, solver: accounts.solver.address, freshRecipient: getAddress(`0x${'5e'.repeat(20)}`) });
  // taken before the watcher or anything else sends a transaction: the state is the deployment's alone
  if (deployedNow && keeper) keeper.write({ state: await testClient.dumpState(), gas });
  return { contracts, gas, deployment: deployedNow ? 'deployed' : 'found' };
}

/**
 * Brings a booted node into service: deploys the simulator's contracts, measures gas, then builds
 * the solver wallet, the deposit-address book, the deposit watcher (started) and the step and
 * fact builders, and resumes what a previous run left signed or paid.
 */
export async function startEvmChain(params: StartEvmChainParams): Promise<StartedEvmChain> {
  const { metadata, client, testClient, accounts, clock } = params;
  const chainId = metadata.id;
  const { contracts, gas, deployment } = await deployOrLoad(params);
  const priorityFee = await client.estimateMaxPriorityFeePerGas().catch(() => 1_000_000_000n);
  const nativeCurrency = evmNativeCurrency(metadata);
  const erc20Currencies = evmErc20Currencies(metadata, contracts);

  let watcher: EvmDepositWatcher | undefined;
  const effectiveGasPrice = () => (watcher?.baseFeePerGas ?? 0n) + priorityFee;
  const fees = () => {
    const baseFee = watcher?.baseFeePerGas ?? 1_000_000_000n;
    return { maxFeePerGas: baseFee * 2n + priorityFee, maxPriorityFeePerGas: priorityFee };
  };

  const facts = new EvmTransactionFacts({ chainId, client, depository: contracts.depository, nativeCurrency });
  const afterReceipt = params.afterSolverReceipt ?? (async () => undefined);
  const wallet = new EvmSolverWallet({ chainId, client, account: accounts.solver, contracts, store: params.solverTransactions, clock, gas: () => gas, fees, facts, afterReceipt });
  const depositAddresses = new EvmDepositAddresses({
    chainId,
    client,
    factory: contracts.depositAddressFactory,
    tokens: () => erc20Currencies.map((currency) => currency.address),
    store: params.depositAddressStore,
    clock,
    emit: params.emit,
  });
  watcher = new EvmDepositWatcher({
    chainId,
    client,
    wsUrl: params.endpoints.wsUrl,
    depository: contracts.depository,
    index: params.chainIndex,
    clock,
    pollIntervalMs: params.pollIntervalMs,
    emit: params.emit,
    ...(params.onBlocksIndexed ? { onBlocksIndexed: params.onBlocksIndexed } : {}),
    inspectBlock: (block) => depositAddresses.inspectBlock(block),
    // a reorg that dropped the solver's own transactions: they are sent again (same bytes, same nonces)
    onReorged: async () => void (await wallet.restoreDroppedByReorg()),
    ...(params.journal ? { journal: params.journal } : {}),
    // the fatal error names the chain: a node killed under the watcher first shows as a closed socket
    onError: (error) => params.onFatalError(new Error(`chain ${chainId}: its deposit watcher lost the node: ${error instanceof Error ? error.message : String(error)}`, { cause: error })),
  });
  const started: StartedEvmChain = {
    endpoints: params.endpoints,
    client,
    testClient,
    contracts,
    gas,
    nativeCurrency,
    erc20Currencies,
    wallet,
    relayer: new EvmRelayer({ chainId, client, account: accounts.relayer, depository: contracts.depository, fees }),
    watcher,
    depositAddresses,
    steps: new EvmDepositSteps({ chainId, client, contracts, gas, fees, depositAddresses }),
    facts,
    deployment,
    effectiveGasPrice,
    fees,
  };
  // every block so far (genesis and the deployment) is journaled before the watcher takes over
  await params.journal?.catchUp();
  await watcher.start();
  await wallet.resumeUnsettled();
  depositAddresses.resumePaid();
  return started;
}
