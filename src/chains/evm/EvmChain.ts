import { defineChain, getAddress, isAddress, type Chain, type Hex, type PublicClient, type TestClient } from 'viem';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { constantProductPoolArtifact, stablecoinArtifact } from '../../../fixtures/contracts/artifacts.generated';
import { POOL_FEE_BPS } from '../../../fixtures/pools';
import type { ChainMetadata } from '../../../fixtures/chains';
import type { ChainDescription } from '../../domain/chain/chainDescription';
import type { Currency } from '../../domain/chain/currency';
import type { IndexedDeposit } from '../../domain/chain/observedDeposit';
import type { SolverPayment } from '../../domain/fill/solverPayment';
import type { ChainLiquidity } from '../../domain/quote/planRoute';
import type { QuoteStep } from '../../domain/quote/quoteStep';
import type { TransactionEntry } from '../../domain/request/requestRecord';
import type { ChainAdapterContext } from '../chainAdapterContext';
import { EvmUserWallet } from './EvmUserWallet';
import type { ChainAdapter, ChainGasCosts, ChainObservation, DepositStepParams, WorldRevertSync } from '../ChainAdapter';
import type { SolverWallet } from '../SolverWallet';
import type { GaslessRelayCapability } from '../capabilities/GaslessRelayCapability';
import { EvmCheatCalls } from './EvmCheatCalls';
import { EvmFixtureContracts } from './EvmFixtureContracts';
import { EvmDepositAddressCapability } from './EvmDepositAddressCapability';
import { evmGasCosts } from './evmGasCosts';
import { createAnvilInstance, type AnvilEndpoints, type AnvilInstance, type AnvilInstanceOptions } from './AnvilInstance';
import { setupCompleteAt, type SimulatorContracts } from './deploySimulatorContracts';
import { ExternalEvmNode } from './ExternalEvmNode';
import { keptDeploymentFor } from './keptDeployment';
import { ipcPathFor } from './ipcPathFor';
import { connectEvmNode, type BootedNode } from './connectEvmNode';
import { SameStateReadCache } from './SameStateReadCache';
import { evmAfterWorldRevert } from './evmAfterWorldRevert';
import { EvmChainJournal } from './EvmChainJournal';
import { EvmCallJournal } from './front/EvmCallJournal';
import { startEvmRpcFront, type EvmRpcFront } from './front/EvmRpcFront';
import type { ChainJournalStore } from '../../store/ChainJournalStore';
import { startEvmChain, type StartedEvmChain } from './startEvmChain';
import { EvmGaslessRelay } from './EvmGaslessRelay';
import { describeEvmChain } from './describeEvmChain';
import type { EvmForkPoint } from './probeForkUpstream';

/** What the registry builds an EVM chain with: the shared context, and what is EVM's own. */
export interface EvmChainOptions extends Omit<ChainAdapterContext, 'chainJournal'> {
  metadata: ChainMetadata;
  /** Attach to this node instead of spawning Anvil. */
  externalNode?: { rpcUrl: string; resetOnStart: boolean };
  /** Spawn Anvil as a fork of this upstream, at this block (probed before: probeForkUpstream). */
  fork?: EvmForkPoint;
  anvilBinary: string;
  /** `--chain-port`: the port of the RPC front users get (default: a free one). */
  port?: number;
  /** Where mined blocks are journaled (with `persistState`, for a node this simulator spawns). */
  chainJournal?: ChainJournalStore;
}

/** How long a forked node may take to start: it fetches the fork block and the chain's facts from its upstream first. */
const FORK_START_TIMEOUT_MS = 30_000;

/**
 * An EVM chain: one real Anvil process (or an attached node) and, once started, the parts that
 * serve it (`startEvmChain`): contracts, solver wallet, deposit watcher, deposit addresses, step
 * and fact builders, cheat calls. This class is the ChainAdapter façade over them.
 */
export class EvmChain implements ChainAdapter {
  readonly vmType = 'evm' as const;
  readonly chainId: number;
  private readonly node: AnvilInstance | ExternalEvmNode;
  /** How the Anvil this chain spawns runs (none for an attached node). */
  private readonly anvilOptions: AnvilInstanceOptions | undefined;
  private readonly listeners = new Set<(observation: ChainObservation) => void>();
  private booted: BootedNode | undefined;
  /** Quote-time reads kept while the chain's state stands (a block indexed or a write forgets them). */
  private readonly sameStateReads = new SameStateReadCache();
  private started: StartedEvmChain | undefined;
  /** The simulator's own RPC URL in front of a node it spawned (what users get); none for an attached node. */
  private front: EvmRpcFront | undefined;
  /** What users sent that changes the chain, journaled by the front (a durable chain only). */
  private readonly callJournal: EvmCallJournal | undefined;
  private readonly relay: EvmGaslessRelay;
  /** A user's wallet (capability `userWallet`): a user's transactions go through the front, as any user's do. */
  readonly userWallet: EvmUserWallet;
  /** Anvil's cheat calls, every optional one included. */
  readonly cheats: EvmCheatCalls;
  readonly fixtureContracts: EvmFixtureContracts;
  readonly depositAddresses: EvmDepositAddressCapability;
  readonly gasCosts: ChainGasCosts;

  constructor(private readonly options: EvmChainOptions) {
    this.chainId = options.metadata.id;
    const parts = () => this.parts();
    this.relay = new EvmGaslessRelay({ parts, durable: this.durable(), syncNow: () => this.syncNow() });
    this.userWallet = new EvmUserWallet(() => ({ client: this.node_().client, chain: this.viemChain(), rpcUrl: this.rpcUrl }));
    this.cheats = new EvmCheatCalls({ testClient: () => this.node_().testClient, afterChange: () => this.syncNow(), pauseWatching: () => this.pauseWatcher(), holdUserCalls: async () => (this.front ? this.front.hold() : () => undefined), setupCompleteAt: (blockNumber) => setupCompleteAt({ ...this.parts(), solver: options.accounts().solver.address }, blockNumber) });
    this.fixtureContracts = new EvmFixtureContracts({
      chainId: this.chainId,
      rpcUrl: () => this.rpcUrl,
      client: () => this.publicClient,
      contracts: () => this.contractAddresses,
      userWallet: this.userWallet,
      deployer: () => options.accounts().deployer,
    });
    this.depositAddresses = new EvmDepositAddressCapability({
      parts,
      store: options.depositAddresses,
      solver: () => options.accounts().solver.address,
      markMined: (requestId, kind, status) => this.markMined(requestId, kind, status),
      syncNow: () => this.syncNow(),
    });
    this.gasCosts = evmGasCosts(parts);
    this.callJournal = this.durable() && options.ledgerJournal ? new EvmCallJournal({ chainId: this.chainId, journal: options.ledgerJournal }) : undefined;
    this.anvilOptions = options.externalNode
      ? undefined
      : {
          chainId: this.chainId,
          binaryPath: options.anvilBinary,
          logFile: join(options.dataDir, 'logs', `anvil-${this.chainId}.log`),
          mnemonic: options.mnemonic,
          accounts: options.accountCount,
          // durable: the journal is the chain's one record (Anvil's own --state is written only on a
          // graceful exit, and mixing the two can disagree); the chain is rebuilt on its old genesis
          ...(options.persistState && !this.durable() ? { statePath: this.statePath() } : {}),
          ...(this.rebuildsFromJournal() ? { genesisTimestamp: options.chainJournal!.block(this.chainId, 0)!.timestamp } : {}),
          ipcPath: ipcPathFor(options.dataDir, this.chainId),
          ...(options.fork ? { fork: { url: options.fork.url, blockNumber: options.fork.blockNumber }, startTimeoutMs: FORK_START_TIMEOUT_MS } : {}),
        };
    this.node = options.externalNode ? new ExternalEvmNode({ chainId: this.chainId, ...options.externalNode }) : createAnvilInstance(this.anvilOptions!);
    this.node.onUnexpectedExit((exit) =>
      options.onFatalError(new Error(`anvil for chain ${this.chainId} exited unexpectedly (code ${exit.exitCode ?? exit.signal}); see ${this.node.logFile}`)),
    );
  }

  /** Starts the Anvil process only (the part that can overlap with other start-up work). */
  async startNode(): Promise<void> {
    const endpoints = await this.node.start();
    if (!this.options.externalNode) {
      const calls = this.callJournal;
      // users reach the chain through the front, on the API's host; Anvil itself stays on loopback
      this.front = await startEvmRpcFront({
        upstream: endpoints,
        host: this.options.host,
        ...(this.options.port === undefined ? {} : { port: this.options.port }),
        ...(calls ? { journal: (sent, head) => calls.record(sent, head) } : {}),
        onStateChange: () => {
          this.sameStateReads.stateChanged();
          this.started?.watcher.stateChanged();
        },
      });
    }
    const log = this.options.log;
    this.booted = await connectEvmNode({ chainId: this.chainId, endpoints, chain: this.viemChainAt(endpoints), quoteRpc: this.options.quoteRpc, sameStateReads: this.sameStateReads, ...(log ? { log: (message) => log(message) } : {}) });
  }

  async start(): Promise<void> {
    if (!this.booted) await this.startNode();
    const booted = this.booted!;
    this.started = await startEvmChain({
      metadata: this.options.metadata,
      endpoints: booted.endpoints,
      client: booted.client,
      testClient: booted.testClient,
      accounts: this.options.accounts(),
      clock: this.options.clock,
      chainIndex: this.options.chainIndex,
      solverTransactions: this.options.solverTransactions,
      depositAddressStore: this.options.depositAddresses,
      pollIntervalMs: this.options.pollIntervalMs,
      emit: (observation) => this.listeners.forEach((listener) => listener(observation)),
      onBlocksIndexed: () => this.sameStateReads.stateChanged(),
      onFatalError: this.options.onFatalError,
      ...(this.options.fork ? { forked: true } : {}),
      // durable: the block is journaled before any record points at it
      ...(this.durable() ? { afterSolverReceipt: () => this.syncNow() } : {}),
      ...(this.durable() ? { journal: this.chainJournal(booted) } : {}),
      keptDeployment: keptDeploymentFor({
        chainId: this.chainId,
        nativeSymbol: this.options.metadata.nativeSymbol,
        accounts: this.options.accounts(),
        rpcUrl: booted.endpoints.rpcUrl,
        attachedGenesis: this.node instanceof ExternalEvmNode ? this.node.resetGenesis : undefined,
        spawned: this.options.fork || this.options.persistState ? undefined : this.anvilOptions,
        store: this.options.keptGenesis,
      }),
    });
    const loadedFrom = { loaded: "this node's deployment kept at an earlier attach", 'kept-genesis': 'the kept genesis' }[this.started.deployment as string];
    if (loadedFrom) this.options.log?.(`chain ${this.chainId}: contracts loaded from ${loadedFrom} (anvil_loadState)`);
  }

  /** The chain's journal (a durable chain): a fork's starts at the upstream block it is pinned at. */
  private chainJournal(booted: BootedNode): EvmChainJournal {
    const fork = this.options.fork;
    return new EvmChainJournal({
      chainId: this.chainId,
      client: booted.client,
      testClient: booted.testClient,
      store: this.options.chainJournal!,
      log: this.options.log ?? (() => undefined),
      ...(this.callJournal ? { calls: this.callJournal } : {}),
      ...(fork ? { forkBase: { number: Number(fork.blockNumber), hash: fork.hash, timestamp: Number(fork.timestamp) } } : {}),
    });
  }

  private statePath(): string {
    return join(this.options.dataDir, 'chains', `${this.chainId}.json`);
  }

  /** A stored solver transaction was mined: confirmed, or failed when it reverted. */
  private markMined(requestId: Hex, kind: 'fill' | 'refund' | 'sweep', status: 'success' | 'reverted'): void {
    const saved = this.options.solverTransactions.find(requestId, kind);
    if (saved) this.options.solverTransactions.setState(saved.id, status === 'success' ? 'confirmed' : 'failed');
  }

  /** A journal with the genesis: the chain is mined again from it at start (a fork's starts from its upstream's block instead). */
  private rebuildsFromJournal(): boolean {
    return this.durable() && !this.options.fork && this.options.chainJournal!.block(this.chainId, 0) !== undefined;
  }

  /** Journaled, so a SIGKILL loses no block: the simulator's own node, with a database. */
  private durable(): boolean {
    return this.options.persistState && !this.options.externalNode && this.options.chainJournal !== undefined;
  }

  async stop(): Promise<void> {
    await this.started?.watcher.stop();
    await this.front?.close();
    this.booted?.ipc?.close();
    await this.node.stop();
    this.booted?.agent?.destroy();
    if (this.booted?.endpoints.ipcPath) rmSync(this.booted.endpoints.ipcPath, { force: true }); // Anvil leaves it
  }

  /** Viem test client for cheat calls (reorgs, time travel, balances) used by tests and scenarios. */
  get testClient(): TestClient {
    return this.node_().testClient;
  }

  get publicClient(): PublicClient {
    return this.node_().client;
  }

  get contractAddresses(): SimulatorContracts {
    return this.parts().contracts;
  }

  /** The Anvil process id (undefined when attached to an external node): tests pause it to make the RPC slow. */
  get nodePid(): number | undefined {
    return 'pid' in this.node ? this.node.pid : undefined;
  }

  /** What users get: the front's URL for a node the simulator spawned, the node's own for an attached one. */
  get rpcUrl(): string {
    return this.userEndpoints().rpcUrl;
  }

  private userEndpoints(): { rpcUrl: string; wsUrl: string } {
    return this.front ?? this.node_().endpoints;
  }

  viemChain(): Chain {
    return this.viemChainAt(this.booted ? this.userEndpoints() : undefined);
  }

  currencies(): Currency[] {
    return [this.nativeCurrency(), ...this.erc20Currencies()];
  }

  nativeCurrency(): Currency {
    return this.parts().nativeCurrency;
  }

  erc20Currencies(): Currency[] {
    return this.parts().erc20Currencies;
  }

  findCurrency(address: string): Currency | undefined {
    if (!isAddress(address, { strict: false })) return undefined;
    return this.currencies().find((currency) => currency.address.toLowerCase() === address.toLowerCase());
  }

  isValidAddress(address: string): boolean {
    return isAddress(address, { strict: true });
  }

  normalizeAddress(address: string): string {
    return getAddress(address);
  }

  describe(): ChainDescription {
    return describeEvmChain({
      metadata: this.options.metadata,
      contracts: this.parts().contracts,
      endpoints: this.userEndpoints(),
      nativeCurrency: this.nativeCurrency(),
      erc20Currencies: this.erc20Currencies(),
      solverAddress: this.options.accounts().solver.address,
      logFile: this.node.logFile,
      ...(this.options.fork ? { fork: this.options.fork } : {}),
    });
  }

  buildDepositSteps(params: DepositStepParams): Promise<QuoteStep[]> {
    return this.parts().steps.buildDepositSteps(params);
  }

  liquidity(): ChainLiquidity {
    const [stablecoin, wrappedNative] = this.erc20Currencies();
    const pool = { address: this.contractAddresses.pool, token0: wrappedNative!, token1: stablecoin!, feeBps: POOL_FEE_BPS };
    return { nativeCurrency: this.nativeCurrency(), wrappedNative: wrappedNative!, pools: [pool] };
  }

  async readPoolReserves(pool: string): Promise<{ reserve0: bigint; reserve1: bigint }> {
    const [reserve0, reserve1] = await this.parts().client.readContract({ address: getAddress(pool), abi: constantProductPoolArtifact.abi, functionName: 'getReserves' });
    return { reserve0, reserve1 };
  }

  async balanceOf(owner: string, currency: Currency): Promise<bigint> {
    const { client } = this.parts();
    const address = getAddress(owner);
    if (currency.isNative) return client.getBalance({ address });
    return client.readContract({ address: currency.address, abi: stablecoinArtifact.abi, functionName: 'balanceOf', args: [address] });
  }

  onObservation(listener: (observation: ChainObservation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async indexTransaction(txHash: string): Promise<void> {
    const receipt = await this.parts()
      .client.getTransactionReceipt({ hash: txHash as Hex })
      .catch(() => undefined);
    if (receipt) await this.syncNow();
  }


  /** Until the returned function is called, the deposit watcher indexes nothing; resolves once the catch-up running now is done. */
  private async pauseWatcher(): Promise<() => void> {
    const { watcher } = this.parts();
    await watcher.pause();
    return () => watcher.resume();
  }

  /** Indexes up to the chain head now (tests and scenarios use this to avoid waiting); after a world revert, see `evmAfterWorldRevert`. */
  syncNow(options: WorldRevertSync = {}): Promise<void> {
    const { watcher, wallet } = this.parts();
    if (!options.afterWorldRevert) return watcher.catchUp();
    const log = this.options.log;
    return evmAfterWorldRevert({ chainId: this.chainId, testClient: this.node_().testClient, wallet, catchUp: () => watcher.catchUp(), ...(log ? { log: (message: string) => log(message) } : {}) }, options);
  }

  /** The solver's wallet (after `start`), see `EvmSolverWallet`. */
  get solverWallet(): SolverWallet {
    return this.parts().wallet;
  }

  indexedDepositEntry(deposit: IndexedDeposit): TransactionEntry {
    return this.parts().facts.indexedDepositEntry(deposit);
  }

  depositTransactionEntry(deposit: IndexedDeposit, status: 'success' | 'failure'): Promise<TransactionEntry> {
    return this.parts().facts.depositTransactionEntry(deposit, status);
  }

  /** The chain's gasless relayer (SPEC §1.6), see `EvmGaslessRelay`. */
  get gaslessRelay(): GaslessRelayCapability {
    return this.relay;
  }

  private viemChainAt(endpoints: { rpcUrl: string; wsUrl: string } | undefined): Chain {
    const { metadata } = this.options;
    return defineChain({
      id: this.chainId,
      name: metadata.displayName,
      nativeCurrency: { name: metadata.nativeName, symbol: metadata.nativeSymbol, decimals: 18 },
      rpcUrls: { default: { http: [endpoints?.rpcUrl ?? 'http://127.0.0.1'], webSocket: endpoints ? [endpoints.wsUrl] : [] } },
    });
  }

  /** The node's clients (after `startNode`). */
  private node_(): BootedNode {
    if (!this.booted) throw new Error(`chain ${this.chainId}: its node is not started`);
    return this.booted;
  }

  /** The started chain's parts (after `start`). */
  private parts(): StartedEvmChain {
    if (!this.started) throw new Error(`chain ${this.chainId} is not started`);
    return this.started;
  }
}
