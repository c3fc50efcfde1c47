import { createPublicClient, createTestClient, defineChain, getAddress, http, isAddress, type Chain, type Hex, type PublicClient, type TestClient } from 'viem';
import { rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constantProductPoolArtifact, stablecoinArtifact } from '../../../fixtures/contracts/artifacts.generated';
import { POOL_FEE_BPS } from '../../../fixtures/pools';
import type { ChainMetadata } from '../../../fixtures/chains';
import type { ChainDescription } from '../../domain/chain/chainDescription';
import type { Currency } from '../../domain/chain/currency';
import type { DepositAddressPayment, IndexedDeposit } from '../../domain/chain/observedDeposit';
import type { SolverPayment } from '../../domain/fill/solverPayment';
import type { ChainLiquidity, DestinationAction } from '../../domain/quote/planRoute';
import type { QuoteStep } from '../../domain/quote/quoteStep';
import type { TransactionEntry } from '../../domain/request/requestRecord';
import type { ChainAdapterContext } from '../chainAdapterContext';
import { evmAddressForLabel, EvmUserWallet } from './EvmUserWallet';
import type {
  ChainAdapter,
  ChainObservation,
  ContractAbiRef,
  ContractSignature,
  UserSendOptions,
  UserTransaction,
  DepositStepParams,
  FailedTransactionFacts,
  FillSimulation,
  SentSolverTransaction,
  SolverSendOptions,
  GaslessRelayCapability,
} from '../ChainAdapter';
import { deployFixtureContract, FIXTURE_CONTRACT_NAMES, FixtureDeploymentError, type FixtureContractName } from './deployFixtureContract';
import { ContractCallError, encodeFixtureCall, fixtureConstructorArgs, signContractMessage } from './fixtureContractCalls';
import { createAnvilInstance, type AnvilEndpoints, type AnvilInstance } from './AnvilInstance';
import { fillGasUnits } from './calibrateGas';
import type { SimulatorContracts } from './deploySimulatorContracts';
import { ExternalEvmNode } from './ExternalEvmNode';
import { ipcTransport, type IpcTransport } from './ipcTransport';
import { nodeHttpFetch } from './nodeHttpFetch';
import { quoteScopedTransport, stateChangeTransport } from './quoteScopedTransport';
import { SameStateReadCache } from './SameStateReadCache';
import { readDeliveries } from './readDeliveries';
import { EvmChainJournal } from './EvmChainJournal';
import { EvmCallJournal } from './front/EvmCallJournal';
import { startEvmRpcFront, type EvmRpcFront } from './front/EvmRpcFront';
import type { ChainJournalStore } from '../../store/ChainJournalStore';
import { startEvmChain, type StartedEvmChain } from './startEvmChain';
import { EvmGaslessRelay } from './EvmGaslessRelay';

/** What the registry builds an EVM chain with: the shared context, and what is EVM's own. */
export interface EvmChainOptions extends Omit<ChainAdapterContext, 'anvilPath' | 'anvilSearchPath' | 'chainJournal'> {
  metadata: ChainMetadata;
  /** Attach to this node instead of spawning Anvil. */
  externalNode?: { rpcUrl: string; resetOnStart: boolean };
  anvilBinary: string;
  /** Where mined blocks are journaled (with `persistState`, for a node this simulator spawns). */
  chainJournal?: ChainJournalStore;
  log?: (message: string) => void;
}

/** A node that answers: its endpoints and the viem clients on it (before contracts are deployed). */
interface BootedNode {
  endpoints: AnvilEndpoints;
  client: PublicClient;
  testClient: TestClient;
  /** The kept-alive sockets of the HTTP clients (plain HTTP nodes). */
  agent?: Agent;
  /** The public client's transport, for a node spawned with an IPC socket. */
  ipc?: IpcTransport;
}

/** How long a spawned node's IPC socket may take to answer its first call before HTTP is used instead. */
const IPC_PROBE_TIMEOUT_MS = 2000;
/** Unix socket paths are limited to 107 bytes; longer ones go to the temp directory. */
const MAX_IPC_PATH_BYTES = 100;
let ipcPathsInTmp = 0;

/** Where a spawned node serves IPC: in the data directory, or in the temp directory when that path is too long. */
function ipcPathFor(dataDir: string, chainId: number): string {
  const inDataDir = join(dataDir, `anvil-${chainId}.ipc`);
  if (Buffer.byteLength(inDataDir) <= MAX_IPC_PATH_BYTES) return inDataDir;
  return join(tmpdir(), `intentsim-${process.pid}-${++ipcPathsInTmp}-${chainId}.ipc`);
}

/**
 * An EVM chain: one real Anvil process (or an attached node) and, once started, the parts that
 * serve it (`startEvmChain`): contracts, solver wallet, deposit watcher, deposit addresses, step
 * and fact builders, cheat calls. This class is the ChainAdapter façade over them.
 */
export class EvmChain implements ChainAdapter {
  readonly vmType = 'evm' as const;
  readonly chainId: number;
  private readonly node: AnvilInstance | ExternalEvmNode;
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

  constructor(private readonly options: EvmChainOptions) {
    this.chainId = options.metadata.id;
    this.relay = new EvmGaslessRelay({ parts: () => this.parts(), durable: this.durable(), syncNow: () => this.syncNow() });
    this.callJournal = this.durable() && options.ledgerJournal ? new EvmCallJournal({ chainId: this.chainId, journal: options.ledgerJournal }) : undefined;
    this.node = options.externalNode
      ? new ExternalEvmNode({ chainId: this.chainId, ...options.externalNode })
      : createAnvilInstance({
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
        });
    this.node.onUnexpectedExit((exit) =>
      options.onFatalError(new Error(`anvil for chain ${this.chainId} exited unexpectedly (code ${exit.exitCode ?? exit.signal}); see ${this.node.logFile}`)),
    );
  }

  /** Starts the Anvil process only (the part that can overlap with other start-up work). */
  async startNode(): Promise<void> {
    const endpoints = await this.node.start();
    if (!this.options.externalNode) {
      const calls = this.callJournal;
      this.front = await startEvmRpcFront({
        upstream: endpoints,
        ...(calls ? { journal: (sent, head) => calls.record(sent, head) } : {}),
        onStateChange: () => this.sameStateReads.stateChanged(),
      });
    }
    const chain = this.viemChainAt(endpoints);
    // HTTP to the node over node:http, kept alive: cheat calls, and every call to a node attached by URL
    const agent = endpoints.rpcUrl.startsWith('http:') ? new Agent({ keepAlive: true }) : undefined;
    const fetchFn = agent ? nodeHttpFetch(agent) : undefined;
    const rpc = () => http(endpoints.rpcUrl, fetchFn ? { fetchFn } : {});
    // the simulator's own calls (quotes, solver, watcher) to a node it spawned: over its IPC socket
    const ipc = endpoints.ipcPath ? await this.openIpc(endpoints.ipcPath) : undefined;
    const transport = quoteScopedTransport(stateChangeTransport(ipc ? ipc.transport : rpc(), this.sameStateReads), { chainId: this.chainId, ...this.options.quoteRpc, reads: this.sameStateReads });
    this.booted = {
      endpoints,
      client: createPublicClient({ chain, transport }),
      testClient: createTestClient({ chain, mode: 'anvil', transport: stateChangeTransport(rpc(), this.sameStateReads) }),
      ...(agent ? { agent } : {}),
      ...(ipc ? { ipc } : {}),
    };
  }

  /** The node's IPC socket once it answers with this chain's id; undefined (HTTP is used) if it does not. */
  private async openIpc(path: string): Promise<IpcTransport | undefined> {
    const ipc = ipcTransport(path);
    const answered = await ipc.probe(IPC_PROBE_TIMEOUT_MS).catch((error: unknown) => error);
    if (answered === this.chainId) return ipc;
    ipc.close();
    this.options.log?.(`chain ${this.chainId}: the IPC socket ${path} did not answer (${answered instanceof Error ? answered.message : String(answered)}); using HTTP`);
    return undefined;
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
      ...(this.durable() ? { journal: new EvmChainJournal({ chainId: this.chainId, client: booted.client, testClient: booted.testClient, store: this.options.chainJournal!, log: this.options.log ?? (() => undefined), ...(this.callJournal ? { calls: this.callJournal } : {}) }) } : {}),
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

  /** A journal with the genesis: the chain is mined again from it at start. */
  private rebuildsFromJournal(): boolean {
    return this.durable() && this.options.chainJournal!.block(this.chainId, 0) !== undefined;
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
    const { contracts } = this.parts();
    const endpoints = this.userEndpoints();
    const { metadata } = this.options;
    return {
      id: this.chainId,
      name: metadata.name,
      displayName: metadata.displayName,
      vmType: 'evm',
      httpRpcUrl: endpoints.rpcUrl,
      wsRpcUrl: endpoints.wsUrl,
      nativeCurrency: this.nativeCurrency(),
      erc20Currencies: this.erc20Currencies(),
      contracts: {
        multicall3: contracts.multicall3,
        multicaller: contracts.multicall3,
        onlyOwnerMulticaller: contracts.multicall3,
        serviceReceiver: contracts.serviceReceiver,
        erc20Router: contracts.depository,
        approvalProxy: contracts.depository,
        v3: { erc20Router: contracts.depository, approvalProxy: contracts.depository },
      },
      depository: contracts.depository,
      solverAddress: this.options.accounts().solver.address,
      summaryContracts: [
        { label: 'depository', address: contracts.depository },
        { label: 'service receiver', address: contracts.serviceReceiver },
        { label: 'USDC (6 dec.)', address: contracts.stablecoin },
        { label: 'wrapped native', address: contracts.wrappedNative },
        { label: 'multicall3', address: contracts.multicall3 },
        { label: 'deposit addresses', address: contracts.depositAddressFactory, note: '(factory)' },
        { label: 'pool', address: contracts.pool, note: '(wrapped native / USDC, x·y=k, 0.3% fee)' },
      ],
      logFile: this.node.logFile,
    };
  }

  buildDepositSteps(params: DepositStepParams): Promise<QuoteStep[]> {
    return this.parts().steps.buildDepositSteps(params);
  }

  async openDepositAddress(params: DepositStepParams): Promise<{ address: string; steps: QuoteStep[] }> {
    return this.parts().steps.openDepositAddress(params);
  }

  async sweepDepositAddress(requestId: Hex, payment: DepositAddressPayment): Promise<{ txHash: Hex; status: 'success' | 'failure' }> {
    const { wallet, depositAddresses } = this.parts();
    const solver = this.options.accounts().solver.address;
    const txHash = await wallet.sendCall(requestId, 'sweep', () => depositAddresses.sweepCall(requestId, payment, solver));
    const receipt = await wallet.waitForReceipt(txHash);
    this.markMined(requestId, 'sweep', receipt.status);
    if (receipt.status !== 'success') return { txHash, status: 'failure' };
    this.options.depositAddresses.markSwept(requestId);
    await this.syncNow(); // index the sweep's Deposit now rather than at the next head
    return { txHash, status: 'success' };
  }

  fillGasCost(currency: Currency, action: DestinationAction['kind'] = 'transfer'): { amount: bigint; currency: Currency } {
    return this.gasCostOf(fillGasUnits(this.parts().gas, currency, action));
  }

  refundGasCost(currency: Currency): { amount: bigint; currency: Currency } {
    const { gas } = this.parts();
    return this.gasCostOf(currency.isNative ? gas.refundNative : gas.refundErc20);
  }

  gasCostOf(gasUnits: bigint): { amount: bigint; currency: Currency } {
    return { amount: gasUnits * this.parts().effectiveGasPrice(), currency: this.nativeCurrency() };
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

  simulateSolverFill(payment: SolverPayment): Promise<FillSimulation> {
    return this.parts().wallet.simulate(payment);
  }

  failedTransactionFacts(txHash: Hex): Promise<FailedTransactionFacts> {
    return this.parts().facts.failedTransactionFacts(txHash);
  }

  depositGasCost(currency: Currency, needsApproval: boolean): bigint {
    const { gas } = this.parts();
    const units = (currency.isNative ? gas.depositNative : gas.depositErc20) + (needsApproval ? gas.approve : 0n);
    return units * this.parts().effectiveGasPrice();
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

  /** Indexes up to the chain head now (tests and scenarios use this to avoid waiting). */
  syncNow(): Promise<void> {
    return this.parts().watcher.catchUp();
  }

  async sendSolverPayment(kind: 'fill' | 'refund', payment: SolverPayment, options: SolverSendOptions = {}): Promise<SentSolverTransaction> {
    return { txHash: await this.parts().wallet.send(kind, payment, options), chainId: this.chainId };
  }

  async signSolverPaymentWithoutSending(kind: 'fill' | 'refund', payment: SolverPayment, options: SolverSendOptions = {}): Promise<SentSolverTransaction> {
    return { txHash: await this.parts().wallet.signWithoutSending(kind, payment, options), chainId: this.chainId };
  }

  hasTransaction(txHash: Hex): Promise<boolean> {
    return this.parts().wallet.hasTransaction(txHash);
  }

  async awaitSolverTransaction(txHash: Hex, kind: 'fill' | 'refund', payment: SolverPayment): Promise<TransactionEntry> {
    const { wallet, facts } = this.parts();
    const receipt = await wallet.waitForReceipt(txHash);
    // durable: the block is journaled before any record points at it
    if (this.durable()) await this.syncNow();
    this.markMined(payment.requestId, kind, receipt.status);
    // who received what, as the chain shows it (a Call's value goes to its target; a top-up to the recipient)
    const { client, contracts } = this.parts();
    const internal = new Set([...Object.values(contracts), this.options.accounts().solver.address].map((address) => String(address).toLowerCase()));
    const deliveries = await readDeliveries(client, receipt, internal);
    const recipient = getAddress(payment.recipient);
    // a transaction the node can no longer trace (mined before a reload): what it was sent to pay
    if (deliveries === undefined) return facts.transactionEntry(receipt, kind, { from: receipt.from, to: recipient, currency: payment.currency.address, amount: payment.amount });
    const toRecipient = deliveries.find((d) => d.to === recipient && d.currency.toLowerCase() === payment.currency.address.toLowerCase());
    return facts.transactionEntry(receipt, kind, {
      from: receipt.from,
      to: recipient,
      currency: payment.currency.address,
      amount: receipt.status === 'success' ? (toRecipient?.amount ?? 0n) : payment.amount,
      deliveries,
    });
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

  sendUserTransaction(privateKey: string, item: Record<string, unknown>, options: UserSendOptions = {}): Promise<UserTransaction> {
    return this.userWallet().sendStepItem(privateKey, item, options);
  }

  transferFromUser(privateKey: string, to: string, currency: Currency, amount: bigint, options: UserSendOptions = {}): Promise<UserTransaction> {
    return this.userWallet().transfer(privateKey, to, currency, amount, options);
  }

  addressForLabel(label: string): string {
    return evmAddressForLabel(label);
  }

  async deployFixtureContract(privateKey: string, name: string, args: readonly unknown[]): Promise<string> {
    if (!(FIXTURE_CONTRACT_NAMES as readonly string[]).includes(name)) throw new FixtureDeploymentError(`no fixture contract ${name} (one of ${FIXTURE_CONTRACT_NAMES.join(', ')})`);
    // the arguments are checked against the constructor's ABI here, then encoded by deployFixtureContract
    return deployFixtureContract(this.rpcUrl, privateKey as Hex, name as FixtureContractName, fixtureConstructorArgs(name, args) as never);
  }

  encodeContractCall(contract: ContractAbiRef, functionName: string, args: readonly unknown[]): string {
    return encodeFixtureCall(this.abiNameOf(contract), functionName, args);
  }

  /** The contract whose ABI a call uses: the fixture named, or the simulator's own token contract of a currency. */
  private abiNameOf(contract: ContractAbiRef): string {
    if ('fixture' in contract) return contract.fixture;
    const address = contract.currency.address.toLowerCase();
    const { stablecoin, wrappedNative } = this.contractAddresses;
    if (address === stablecoin.toLowerCase()) return 'Stablecoin';
    if (address === wrappedNative.toLowerCase()) return 'WrappedNative';
    throw new ContractCallError(`${contract.currency.symbol} on ${this.chainId} has no contract to call`);
  }

  signContractMessage(privateKey: string, contract: { fixture: string; address: string }, type: string, message: Record<string, unknown>): Promise<ContractSignature> {
    return signContractMessage({ client: this.publicClient, chainId: this.chainId }, privateKey, contract, type, message);
  }

  /** The stablecoin's owner is the simulator's deployer: it signs the blocklist change. */
  async setBlockedByIssuer(currency: Currency, account: string, blocked: boolean, options: UserSendOptions = {}): Promise<UserTransaction> {
    if (currency.address.toLowerCase() !== this.contractAddresses.stablecoin.toLowerCase()) {
      throw new ContractCallError(`${currency.symbol} on ${this.chainId} has no issuer blocklist (only the stablecoin has one)`);
    }
    const data = encodeFixtureCall('Stablecoin', 'setBlocked', [account, blocked]);
    return this.userWallet().send(this.options.accounts().deployer, { to: getAddress(currency.address), data, value: 0n }, options);
  }

  private userWallet(): EvmUserWallet {
    // a user's transactions go through the front, as any user's do
    return new EvmUserWallet({ client: this.node_().client, chain: this.viemChain(), rpcUrl: this.rpcUrl });
  }

  mine(blocks = 1): Promise<void> {
    return this.parts().cheats.mine(blocks);
  }

  setAutomine(enabled: boolean): Promise<void> {
    return this.parts().cheats.setAutomine(enabled);
  }

  isPending(txHash: string): Promise<boolean> {
    return this.parts().cheats.isPending(txHash as Hex);
  }

  setCode(address: string, code: string): Promise<void> {
    return this.parts().cheats.setCode(getAddress(address), code as Hex);
  }

  setIntervalMining(seconds: number): Promise<void> {
    return this.parts().cheats.setIntervalMining(seconds);
  }

  snapshot(): Promise<string> {
    return this.parts().cheats.snapshot();
  }

  revert(snapshotId: string): Promise<void> {
    return this.parts().cheats.revert(snapshotId);
  }

  reorg(depth: number): Promise<void> {
    return this.parts().cheats.reorg(depth);
  }

  setNextBlockTimestamp(unixSeconds: number): Promise<void> {
    return this.parts().cheats.setNextBlockTimestamp(unixSeconds);
  }

  increaseTime(seconds: number): Promise<void> {
    return this.parts().cheats.increaseTime(seconds);
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
