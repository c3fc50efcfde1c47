import {
  createPublicClient,
  createTestClient,
  defineChain,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  http,
  isAddress,
  zeroAddress,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type TestClient,
  type TransactionReceipt,
} from 'viem';
import { join } from 'node:path';
import { constantProductPoolArtifact, depositoryArtifact, stablecoinArtifact } from '../../../fixtures/contracts/artifacts.generated';
import { POOL_FEE_BPS } from '../../../fixtures/pools';
import type { ChainMetadata } from '../../../fixtures/chains';
import { priceUsdMicrosOf } from '../../../fixtures/prices';
import { STABLECOIN, TOKEN_LOGO_URI } from '../../../fixtures/tokens';
import type { VirtualClock } from '../../clock/VirtualClock';
import type { Currency } from '../../domain/chain/currency';
import type { TransactionEntry } from '../../domain/request/requestRecord';
import type { ChainLiquidity, DestinationAction } from '../../domain/quote/planRoute';
import { usdMicrosOf } from '../../domain/money/usdValue';
import type { ChainIndexStore } from '../../store/ChainIndexStore';
import type { DepositAddressStore } from '../../store/DepositAddressStore';
import type { SolverTxStore } from '../../store/SolverTxStore';
import type { ChainAdapter, ChainObservation, DepositStepParams, FailedTransactionFacts, FillSimulation, SentSolverTransaction } from '../ChainAdapter';
import { createAnvilInstance, type AnvilInstance } from './AnvilInstance';
import { decodeRevertData } from './decodeRevert';
import { calibrateGas, fillGasUnits, type GasCalibration } from './calibrateGas';
import { deploySimulatorContracts, type SimulatorContracts } from './deploySimulatorContracts';
import { EvmDepositAddresses } from './EvmDepositAddresses';
import { EvmDepositWatcher } from './EvmDepositWatcher';
import { EvmSolverWallet } from './EvmSolverWallet';
import { quoteScopedTransport } from './quoteScopedTransport';
import type { QuoteRpcScope } from '../QuoteRpcScope';
import type { RpcFaultStore } from '../RpcFaultStore';
import { ExternalEvmNode } from './ExternalEvmNode';
import type { SimulatorAccounts } from './simulatorAccounts';
import type { DepositAddressPayment, IndexedDeposit } from '../../domain/chain/observedDeposit';
import type { SolverPayment } from '../../domain/fill/solverPayment';
import type { QuoteStep } from '../../domain/quote/quoteStep';
import type { ChainDescription } from '../../domain/chain/chainDescription';

export interface EvmChainOptions {
  metadata: ChainMetadata;
  /** Attach to this node instead of spawning Anvil. */
  externalNode?: { rpcUrl: string; resetOnStart: boolean };
  anvilBinary: string;
  dataDir: string;
  /** Keep chain state in `dataDir` across restarts (`--state`). */
  persistState: boolean;
  mnemonic: string;
  accountCount: number;
  accounts: () => SimulatorAccounts;
  clock: VirtualClock;
  chainIndex: ChainIndexStore;
  solverTransactions: SolverTxStore;
  depositAddresses: DepositAddressStore;
  pollIntervalMs: number;
  onFatalError: (error: Error) => void;
  /** The quote-time RPC hook: timeout and admin faults for calls made while quoting (SPEC §7.1). */
  quoteRpc: { scope: QuoteRpcScope; faults: RpcFaultStore; timeoutMs: number };
}

/** How much more gas than measured a quote's step items carry. */
const USER_GAS_MARGIN_PERCENT = 150n;
/** A plain native transfer to an account without code. */
const NATIVE_TRANSFER_GAS = 21_000n;

/**
 * An EVM chain: one real Anvil process with the simulator's contracts, a deposit watcher and
 * the solver's wallet on it.
 */
export class EvmChain implements ChainAdapter {
  readonly vmType = 'evm' as const;
  readonly chainId: number;
  private readonly node: AnvilInstance | ExternalEvmNode;
  private readonly listeners = new Set<(observation: ChainObservation) => void>();
  private client: PublicClient | undefined;
  private testClientInstance: TestClient | undefined;
  private contracts: SimulatorContracts | undefined;
  private gas: GasCalibration | undefined;
  private priorityFee = 1_000_000_000n;
  private watcher: EvmDepositWatcher | undefined;
  private depositAddressBook: EvmDepositAddresses | undefined;
  private wallet: EvmSolverWallet | undefined;
  private endpoints: { rpcUrl: string; wsUrl: string } | undefined;

  constructor(private readonly options: EvmChainOptions) {
    this.chainId = options.metadata.id;
    this.node = options.externalNode
      ? new ExternalEvmNode({ chainId: this.chainId, ...options.externalNode })
      : createAnvilInstance({
          chainId: this.chainId,
          binaryPath: options.anvilBinary,
          logFile: join(options.dataDir, 'logs', `anvil-${this.chainId}.log`),
          mnemonic: options.mnemonic,
          accounts: options.accountCount,
          ...(options.persistState ? { statePath: join(options.dataDir, 'chains', `${this.chainId}.json`) } : {}),
        });
    this.node.onUnexpectedExit((exit) =>
      options.onFatalError(new Error(`anvil for chain ${this.chainId} exited unexpectedly (code ${exit.exitCode ?? exit.signal}); see ${this.node.logFile}`)),
    );
  }

  /** Starts the Anvil process only (the part that can overlap with other start-up work). */
  async startNode(): Promise<void> {
    this.endpoints = await this.node.start();
    const chain = this.viemChain();
    const transport = quoteScopedTransport(http(this.endpoints.rpcUrl), { chainId: this.chainId, ...this.options.quoteRpc });
    this.client = createPublicClient({ chain, transport });
    this.testClientInstance = createTestClient({ chain, mode: 'anvil', transport: http(this.endpoints.rpcUrl) });
  }

  async start(): Promise<void> {
    if (!this.endpoints) await this.startNode();
    const client = this.requireClient();
    const accounts = this.options.accounts();
    const { contracts } = await deploySimulatorContracts({
      publicClient: client,
      testClient: this.requireTestClient(),
      chainId: this.chainId,
      nativeSymbol: this.options.metadata.nativeSymbol,
      accounts,
    });
    this.contracts = contracts;
    const [gas, priorityFee] = await Promise.all([
      calibrateGas({ client, contracts, solver: accounts.solver.address, freshRecipient: getAddress(`0x${'5e'.repeat(20)}`) }),
      client.estimateMaxPriorityFeePerGas().catch(() => 1_000_000_000n),
    ]);
    this.gas = gas;
    this.priorityFee = priorityFee;
    this.wallet = new EvmSolverWallet({
      chainId: this.chainId,
      client,
      account: accounts.solver,
      contracts,
      store: this.options.solverTransactions,
      clock: this.options.clock,
      gas: () => this.requireGas(),
      fees: () => this.currentFees(),
    });
    const emit = (observation: ChainObservation) => this.listeners.forEach((listener) => listener(observation));
    const depositAddressBook = new EvmDepositAddresses({
      chainId: this.chainId,
      client,
      factory: contracts.depositAddressFactory,
      tokens: () => this.erc20Currencies().map((currency) => currency.address),
      store: this.options.depositAddresses,
      clock: this.options.clock,
      emit,
    });
    this.depositAddressBook = depositAddressBook;
    this.watcher = new EvmDepositWatcher({
      chainId: this.chainId,
      client,
      wsUrl: this.endpoints!.wsUrl,
      depository: contracts.depository,
      index: this.options.chainIndex,
      clock: this.options.clock,
      pollIntervalMs: this.options.pollIntervalMs,
      emit,
      inspectBlock: (block) => depositAddressBook.inspectBlock(block),
      onError: (error) => this.options.onFatalError(error instanceof Error ? error : new Error(String(error))),
    });
    await this.watcher.start();
    await this.wallet.resumeUnsettled();
    depositAddressBook.resumePaid();
  }

  async stop(): Promise<void> {
    await this.watcher?.stop();
    await this.node.stop();
  }

  /** Viem test client for cheat calls (reorgs, time travel, balances) used by tests and scenarios. */
  get testClient(): TestClient {
    return this.requireTestClient();
  }

  get publicClient(): PublicClient {
    return this.requireClient();
  }

  get contractAddresses(): SimulatorContracts {
    if (!this.contracts) throw new Error(`chain ${this.chainId} is not started`);
    return this.contracts;
  }

  /** The Anvil process id (undefined when attached to an external node): tests pause it to make the RPC slow. */
  get nodePid(): number | undefined {
    return 'pid' in this.node ? this.node.pid : undefined;
  }

  get rpcUrl(): string {
    if (!this.endpoints) throw new Error(`chain ${this.chainId} is not started`);
    return this.endpoints.rpcUrl;
  }

  viemChain(): Chain {
    const rpc = this.endpoints?.rpcUrl ?? 'http://127.0.0.1';
    const { metadata } = this.options;
    return defineChain({
      id: this.chainId,
      name: metadata.displayName,
      nativeCurrency: { name: metadata.nativeName, symbol: metadata.nativeSymbol, decimals: 18 },
      rpcUrls: { default: { http: [rpc], webSocket: this.endpoints ? [this.endpoints.wsUrl] : [] } },
    });
  }

  currencies(): Currency[] {
    return [this.nativeCurrency(), ...this.erc20Currencies()];
  }

  nativeCurrency(): Currency {
    const { metadata } = this.options;
    return {
      chainId: this.chainId,
      address: zeroAddress,
      symbol: metadata.nativeSymbol,
      name: metadata.nativeName,
      decimals: 18,
      isNative: true,
      logoURI: `${TOKEN_LOGO_URI}${metadata.nativeSymbol.toLowerCase()}.png`,
      verified: true,
      priceUsdMicros: priceUsdMicrosOf(metadata.nativeSymbol),
    };
  }

  erc20Currencies(): Currency[] {
    const contracts = this.contractAddresses;
    const { metadata } = this.options;
    const wrappedSymbol = `W${metadata.nativeSymbol}`;
    return [
      {
        chainId: this.chainId,
        address: contracts.stablecoin,
        symbol: STABLECOIN.symbol,
        name: STABLECOIN.name,
        decimals: STABLECOIN.decimals,
        isNative: false,
        logoURI: `${TOKEN_LOGO_URI}usdc.png`,
        verified: true,
        priceUsdMicros: priceUsdMicrosOf(STABLECOIN.symbol),
      },
      {
        chainId: this.chainId,
        address: contracts.wrappedNative,
        symbol: wrappedSymbol,
        name: `Wrapped ${metadata.nativeName}`,
        decimals: 18,
        isNative: false,
        logoURI: `${TOKEN_LOGO_URI}${wrappedSymbol.toLowerCase()}.png`,
        verified: true,
        priceUsdMicros: priceUsdMicrosOf(wrappedSymbol),
      },
    ];
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
    const contracts = this.contractAddresses;
    const { metadata } = this.options;
    const accounts = this.options.accounts();
    return {
      id: this.chainId,
      name: metadata.name,
      displayName: metadata.displayName,
      vmType: 'evm',
      httpRpcUrl: this.endpoints!.rpcUrl,
      wsRpcUrl: this.endpoints!.wsUrl,
      explorerUrl: '',
      explorerName: 'none (local chain)',
      explorerPaths: { transaction: '/tx/{TX_HASH}', address: '/address/{ADDRESS}', token: '/token/{ADDRESS}' },
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
      solverAddress: accounts.solver.address,
      logFile: this.node.logFile,
    };
  }

  /** One transaction step of one item, ready to send from the user (SPEC §2.2). */
  private transactionStep(
    user: Address,
    step: {
      id: QuoteStep['id'];
      action: string;
      description: string;
      to: Address;
      data: Hex;
      value: bigint;
      gasUnits: bigint;
      withCheck: boolean;
    },
  ): QuoteStep {
    const fees = this.currentFees();
    return {
      id: step.id,
      action: step.action,
      description: step.description,
      kind: 'transaction',
      items: [
        {
          status: 'incomplete',
          withCheck: step.withCheck,
          data: {
            from: user,
            to: step.to,
            data: step.data,
            value: step.value.toString(),
            chainId: this.chainId,
            gas: ((step.gasUnits * USER_GAS_MARGIN_PERCENT) / 100n).toString(),
            maxFeePerGas: fees.maxFeePerGas.toString(),
            maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
          },
        },
      ],
    };
  }

  async buildDepositSteps(params: DepositStepParams): Promise<QuoteStep[]> {
    const contracts = this.contractAddresses;
    const gas = this.requireGas();
    const user = getAddress(params.user);
    const transactionStep = (step: Parameters<EvmChain['transactionStep']>[1]) => this.transactionStep(user, step);

    if (params.currency.isNative) {
      return [
        transactionStep({
          id: 'deposit',
          action: 'Confirm transaction in your wallet',
          description: `Depositing funds to the relayer to execute the request for ${params.currency.symbol}`,
          to: contracts.depository,
          data: encodeFunctionData({ abi: depositoryArtifact.abi, functionName: 'depositNative', args: [user, params.requestId] }),
          value: params.amount,
          gasUnits: gas.depositNative,
          withCheck: true,
        }),
      ];
    }

    const steps: QuoteStep[] = [];
    const allowance = await this.requireClient().readContract({
      address: params.currency.address,
      abi: stablecoinArtifact.abi,
      functionName: 'allowance',
      args: [user, contracts.depository],
    });
    if (allowance < params.amount) {
      steps.push(
        transactionStep({
          id: 'approve',
          action: 'Approve token',
          description: `Allow the depository to move ${params.currency.symbol} from your wallet`,
          to: params.currency.address,
          data: encodeFunctionData({ abi: stablecoinArtifact.abi, functionName: 'approve', args: [contracts.depository, params.amount] }),
          value: 0n,
          gasUnits: gas.approve,
          withCheck: false,
        }),
      );
    }
    steps.push(
      transactionStep({
        id: 'deposit',
        action: 'Confirm transaction in your wallet',
        description: `Depositing ${params.currency.symbol} to the relayer to execute the request`,
        to: contracts.depository,
        data: encodeFunctionData({
          abi: depositoryArtifact.abi,
          functionName: 'depositErc20',
          args: [user, params.currency.address, params.amount, params.requestId],
        }),
        value: 0n,
        gasUnits: gas.depositErc20,
        withCheck: true,
      }),
    );
    return steps;
  }

  async openDepositAddress(params: DepositStepParams): Promise<{ address: string; steps: QuoteStep[] }> {
    const gas = this.requireGas();
    const address = this.requireDepositAddressBook().open(params.requestId);
    const step = this.transactionStep(getAddress(params.user), {
      id: 'deposit',
      action: 'Confirm transaction in your wallet',
      description: `Send ${params.currency.symbol} to the deposit address of this request`,
      ...(params.currency.isNative
        ? { to: address, data: '0x' as Hex, value: params.amount, gasUnits: NATIVE_TRANSFER_GAS }
        : {
            to: params.currency.address,
            data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [address, params.amount] }),
            value: 0n,
            // a bare token transfer to a fresh account, as measured for refunds, without their call overhead
            gasUnits: gas.refundErc20,
          }),
      withCheck: true,
    });
    return { address, steps: [{ ...step, depositAddress: address }] };
  }

  async sweepDepositAddress(requestId: Hex, payment: DepositAddressPayment): Promise<{ txHash: Hex; status: 'success' | 'failure' }> {
    const wallet = this.requireWallet();
    const solver = this.options.accounts().solver.address;
    const txHash = await wallet.sendCall(requestId, 'sweep', () => this.requireDepositAddressBook().sweepCall(requestId, payment, solver));
    const receipt = await wallet.waitForReceipt(txHash);
    const saved = this.options.solverTransactions.find(requestId, 'sweep');
    if (saved) this.options.solverTransactions.setState(saved.id, receipt.status === 'success' ? 'confirmed' : 'failed');
    if (receipt.status !== 'success') return { txHash, status: 'failure' };
    this.options.depositAddresses.markSwept(requestId);
    await this.syncNow(); // index the sweep's Deposit now rather than at the next head
    return { txHash, status: 'success' };
  }

  fillGasCost(currency: Currency, action: DestinationAction['kind'] = 'transfer'): { amount: bigint; currency: Currency } {
    return this.gasCostOf(fillGasUnits(this.requireGas(), currency, action));
  }

  refundGasCost(currency: Currency): { amount: bigint; currency: Currency } {
    const gas = this.requireGas();
    return this.gasCostOf(currency.isNative ? gas.refundNative : gas.refundErc20);
  }

  gasCostOf(gasUnits: bigint): { amount: bigint; currency: Currency } {
    return { amount: gasUnits * this.effectiveGasPrice(), currency: this.nativeCurrency() };
  }

  liquidity(): ChainLiquidity {
    const [stablecoin, wrappedNative] = this.erc20Currencies();
    const pool = { address: this.contractAddresses.pool, token0: wrappedNative!, token1: stablecoin!, feeBps: POOL_FEE_BPS };
    return { nativeCurrency: this.nativeCurrency(), wrappedNative: wrappedNative!, pools: [pool] };
  }

  async readPoolReserves(pool: string): Promise<{ reserve0: bigint; reserve1: bigint }> {
    const [reserve0, reserve1] = await this.requireClient().readContract({
      address: getAddress(pool),
      abi: constantProductPoolArtifact.abi,
      functionName: 'getReserves',
    });
    return { reserve0, reserve1 };
  }

  async simulateSolverFill(payment: SolverPayment): Promise<FillSimulation> {
    return this.requireWallet().simulate(payment);
  }

  /** The failed call from the transaction itself; its error from Anvil's call trace of it. */
  async failedTransactionFacts(txHash: Hex): Promise<FailedTransactionFacts> {
    const client = this.requireClient();
    const [transaction, trace] = await Promise.all([
      client.getTransaction({ hash: txHash }),
      client
        .request({ method: 'debug_traceTransaction', params: [txHash, { tracer: 'callTracer' }] } as never)
        .then((result) => result as { output?: Hex })
        .catch(() => undefined),
    ]);
    const revert = decodeRevertData(trace?.output);
    return {
      callData: { from: transaction.from, to: transaction.to ?? zeroAddress, data: transaction.input, value: transaction.value },
      errorName: revert.errorName,
      message: revert.message,
    };
  }

  depositGasCost(currency: Currency, needsApproval: boolean): bigint {
    const gas = this.requireGas();
    const units = (currency.isNative ? gas.depositNative : gas.depositErc20) + (needsApproval ? gas.approve : 0n);
    return units * this.effectiveGasPrice();
  }

  async balanceOf(owner: string, currency: Currency): Promise<bigint> {
    const client = this.requireClient();
    const address = getAddress(owner);
    if (currency.isNative) return client.getBalance({ address });
    return client.readContract({ address: currency.address, abi: stablecoinArtifact.abi, functionName: 'balanceOf', args: [address] });
  }

  onObservation(listener: (observation: ChainObservation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async indexTransaction(txHash: string): Promise<void> {
    const receipt = await this.requireClient()
      .getTransactionReceipt({ hash: txHash as Hex })
      .catch(() => undefined);
    if (receipt) await this.requireWatcher().catchUp();
  }

  /** Indexes up to the chain head now (tests and scenarios use this to avoid waiting). */
  syncNow(): Promise<void> {
    return this.requireWatcher().catchUp();
  }

  async sendSolverPayment(kind: 'fill' | 'refund', payment: SolverPayment): Promise<SentSolverTransaction> {
    const txHash = await this.requireWallet().send(kind, payment);
    return { txHash, chainId: this.chainId };
  }

  async signSolverPaymentWithoutSending(kind: 'fill' | 'refund', payment: SolverPayment): Promise<SentSolverTransaction> {
    return { txHash: await this.requireWallet().signWithoutSending(kind, payment), chainId: this.chainId };
  }

  async awaitSolverTransaction(txHash: Hex, kind: 'fill' | 'refund', payment: SolverPayment): Promise<TransactionEntry> {
    const receipt = await this.requireWallet().waitForReceipt(txHash);
    const saved = this.options.solverTransactions.find(payment.requestId, kind);
    if (saved) this.options.solverTransactions.setState(saved.id, receipt.status === 'success' ? 'confirmed' : 'failed');
    return this.transactionEntry(receipt, kind, {
      from: receipt.from,
      to: getAddress(payment.recipient),
      currency: payment.currency.address,
      amount: payment.amount,
    });
  }

  indexedDepositEntry(deposit: IndexedDeposit): TransactionEntry {
    return {
      txHash: deposit.txHash,
      chainId: this.chainId,
      type: 'deposit',
      fee: 0n,
      feeUsdMicros: 0n,
      block: deposit.blockNumber,
      blockHash: deposit.blockHash,
      timestamp: deposit.blockTimestamp ?? 0,
      status: 'success',
      data: { from: deposit.depositor, to: this.contractAddresses.depository, currency: deposit.currency, amount: deposit.amount, logIndex: deposit.logIndex },
    };
  }

  async depositTransactionEntry(deposit: IndexedDeposit, status: 'success' | 'failure'): Promise<TransactionEntry> {
    const indexed = { ...this.indexedDepositEntry(deposit), status };
    const receipt = await this.requireClient()
      .getTransactionReceipt({ hash: deposit.txHash })
      .catch(() => undefined);
    // reorged out: the receipt is gone, keep what was indexed
    if (!receipt) return indexed;
    const entry = await this.transactionEntry(receipt, 'deposit', indexed.data);
    return { ...entry, status };
  }

  private async transactionEntry(
    receipt: TransactionReceipt,
    type: TransactionEntry['type'],
    data: TransactionEntry['data'],
  ): Promise<TransactionEntry> {
    const block = await this.requireClient().getBlock({ blockHash: receipt.blockHash });
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    return {
      txHash: receipt.transactionHash,
      chainId: this.chainId,
      type,
      fee,
      feeUsdMicros: usdMicrosOf(fee, this.nativeCurrency()),
      block: Number(receipt.blockNumber),
      blockHash: receipt.blockHash,
      timestamp: Number(block.timestamp),
      status: receipt.status === 'success' ? 'success' : 'failure',
      data,
    };
  }

  private effectiveGasPrice(): bigint {
    return (this.watcher?.baseFeePerGas ?? 0n) + this.priorityFee;
  }

  private currentFees(): { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } {
    const baseFee = this.watcher?.baseFeePerGas ?? 1_000_000_000n;
    return { maxFeePerGas: baseFee * 2n + this.priorityFee, maxPriorityFeePerGas: this.priorityFee };
  }

  private requireClient(): PublicClient {
    if (!this.client) throw new Error(`chain ${this.chainId} is not started`);
    return this.client;
  }

  private requireTestClient(): TestClient {
    if (!this.testClientInstance) throw new Error(`chain ${this.chainId} is not started`);
    return this.testClientInstance;
  }

  private requireGas(): GasCalibration {
    if (!this.gas) throw new Error(`chain ${this.chainId} is not started`);
    return this.gas;
  }

  private requireWatcher(): EvmDepositWatcher {
    if (!this.watcher) throw new Error(`chain ${this.chainId} is not started`);
    return this.watcher;
  }

  private requireDepositAddressBook(): EvmDepositAddresses {
    if (!this.depositAddressBook) throw new Error(`chain ${this.chainId} is not started`);
    return this.depositAddressBook;
  }

  private requireWallet(): EvmSolverWallet {
    if (!this.wallet) throw new Error(`chain ${this.chainId} is not started`);
    return this.wallet;
  }
}

