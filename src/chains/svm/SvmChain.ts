import { address, createKeyPairSignerFromPrivateKeyBytes, getBase58Encoder, getBase58Decoder, isAddress, type Address } from '@solana/kit';
import { createHash } from 'node:crypto';
import type { Hex } from 'viem';
import type { ChainMetadata } from '../../../fixtures/chains';
import { contractsAllAt, type ChainDescription } from '../../domain/chain/chainDescription';
import type { Currency } from '../../domain/chain/currency';
import { indexedDepositEntry, type DepositAddressPayment, type IndexedDeposit } from '../../domain/chain/observedDeposit';
import type { SolverPayment } from '../../domain/fill/solverPayment';
import type { ChainLiquidity, DestinationAction } from '../../domain/quote/planRoute';
import type { QuoteStep } from '../../domain/quote/quoteStep';
import type { TransactionEntry } from '../../domain/request/requestRecord';
import { usdMicrosOf } from '../../domain/money/usdValue';
import { ChainError } from '../../errors/IntentsimError';
import { SimulatorError } from '../../errors/SimulatorError';
import type { ChainAdapterContext } from '../chainAdapterContext';
import type {
  ChainAdapter,
  ChainObservation,
  ContractAbiRef,
  ContractSignature,
  DepositStepParams,
  FailedTransactionFacts,
  FillSimulation,
  SentSolverTransaction,
  SolverSendOptions,
  UserSendOptions,
  UserTransaction,
} from '../ChainAdapter';
import { deriveSvmAccounts, type SvmAccounts } from './svmAccounts';
import { svmCurrencies, type SvmCurrencies } from './svmCurrencies';
import { SvmTransactionRejectedError, type SvmLedger, type SvmTransactionRecord } from './SvmLedger';
import { openSvmLedger } from './SvmLedgerJournal';
import { SvmJsonRpcServer, type SvmRpcEndpoints } from './SvmJsonRpcServer';
import { writeSvmGenesis, associatedTokenAccount } from './writeSvmGenesis';
import { creditsTo, SvmDepositWatcher } from './SvmDepositWatcher';
import { SvmSolverWallet } from './SvmSolverWallet';
import { buildSvmDepositSteps } from './buildSvmDepositSteps';
import { fromStepInstruction, transferInstructions, type SvmStepInstruction } from './svmInstructions';
import { describeSvmTransactionError } from './svmTransactionError';
import { LAMPORTS_PER_SIGNATURE } from './svmTransactionFee';
import { readTokenAccount } from './svmTokenBalances';
import { TOKEN_ACCOUNT_SIZE } from './svmProgramIds';

export interface SvmChainOptions extends Omit<ChainAdapterContext, 'anvilPath' | 'anvilSearchPath'> {
  metadata: ChainMetadata;
  /** Where the JSON-RPC listens (its websocket on the next port). */
  host: string;
}

/**
 * What this chain does not simulate (deposit addresses, fixture contracts, a mempool, forks):
 * the caller asked for it, so it is a 400 with an errorCode, never a 500.
 */
export class SvmCheatNotSupportedError extends SimulatorError {
  constructor(message: string) {
    super('UNSUPPORTED_ON_CHAIN', 400, message);
  }
}

/**
 * The SVM chain (SPEC §4.6): LiteSVM in-process (`SvmLedger`) behind the project's own Solana
 * JSON-RPC, with the simulator's accounts and currencies at genesis, a deposit watcher reading
 * the ledger's transactions, and the solver's wallet. This class is the ChainAdapter façade.
 *
 * LIMITATIONS against a real cluster: one transaction per slot, final once mined (no forks, so
 * no reorgs; every commitment level is `finalized`); no mempool (automine only); fills are
 * transfers (no pools, no wrap route, no destination calls). State lives in memory; with `--db`
 * every slot is journaled and applied again at the next start (`SvmLedgerJournal`).
 */
export class SvmChain implements ChainAdapter {
  readonly vmType = 'svm' as const;
  readonly chainId: number;
  private readonly listeners = new Set<(observation: ChainObservation) => void>();
  private ledger_: SvmLedger | undefined;
  private server: SvmJsonRpcServer | undefined;
  private endpoints: SvmRpcEndpoints | undefined;
  private accounts_: SvmAccounts | undefined;
  private currencies_: SvmCurrencies | undefined;
  private watcher: SvmDepositWatcher | undefined;
  private wallet: SvmSolverWallet | undefined;

  constructor(private readonly options: SvmChainOptions) {
    this.chainId = options.metadata.id;
  }

  get rpcUrl(): string {
    return this.booted().endpoints.rpcUrl;
  }

  /** The ledger (tests and the scenario runner's cheat calls read it). */
  get ledger(): SvmLedger {
    return this.booted().ledger;
  }

  /** The chain's keys: test accounts, solver, depository (after `startNode`). */
  get keys(): SvmAccounts {
    return this.booted().accounts;
  }

  async startNode(): Promise<void> {
    if (this.ledger_) return;
    const accounts = await deriveSvmAccounts(this.options.mnemonic, this.options.accountCount);
    // with --db: genesis at its first start's time, then every journaled slot again (SvmLedgerJournal)
    const { ledger } = await openSvmLedger({
      chainId: this.chainId,
      journal: this.options.ledgerJournal,
      ledger: { clock: this.options.clock, seed: `${this.options.mnemonic}:${this.chainId}`, faucet: accounts.faucet.signer },
      writeGenesis: (opened) => writeSvmGenesis(opened, accounts),
    });
    const server = new SvmJsonRpcServer(ledger, { host: this.options.host });
    this.endpoints = await server.start();
    this.ledger_ = ledger;
    this.server = server;
    this.accounts_ = accounts;
    this.currencies_ = svmCurrencies(this.chainId, accounts.stablecoinMint.address);
  }

  async start(): Promise<void> {
    await this.startNode();
    const { ledger, accounts } = this.booted();
    this.watcher = new SvmDepositWatcher({
      chainId: this.chainId,
      ledger,
      depository: accounts.depository.address,
      chainIndex: this.options.chainIndex,
      emit: (observation) => this.listeners.forEach((listener) => listener(observation)),
    });
    // deposits a killed process journaled but did not index (an indexed one is not reported again)
    this.watcher.catchUp();
    this.wallet = new SvmSolverWallet({ chainId: this.chainId, ledger, solver: accounts.solver, store: this.options.solverTransactions, clock: this.options.clock });
  }

  async stop(): Promise<void> {
    this.watcher?.stop();
    await this.server?.stop();
  }

  describe(): ChainDescription {
    const { accounts, endpoints } = this.booted();
    const { metadata } = this.options;
    const depository = accounts.depository.address;
    const currencies = this.currencies();
    return {
      id: this.chainId,
      name: metadata.name,
      displayName: metadata.displayName,
      vmType: 'svm',
      httpRpcUrl: endpoints.rpcUrl,
      wsRpcUrl: endpoints.wsUrl,
      nativeCurrency: currencies.native,
      erc20Currencies: [currencies.stablecoin, currencies.wrappedNative],
      contracts: contractsAllAt(depository),
      depository,
      solverAddress: accounts.solver.address,
      summaryContracts: [
        { label: 'depository', address: depository, note: '(a system account: deposits carry the request id in a Memo)' },
        { label: 'USDC (6 dec.)', address: currencies.stablecoin.address },
        { label: 'wrapped SOL', address: currencies.wrappedNative.address },
      ],
      fundedAccounts: accounts.testAccounts.map((account) => ({ address: account.address, privateKey: account.secretKeyBase58 })),
      fundedAccountsNote: '1000 SOL, 1,000,000 USDC and 100 wrapped SOL each; keys in base58',
      logFile: 'none (LiteSVM runs in-process)',
    };
  }

  nativeCurrency(): Currency {
    return this.currencies().native;
  }

  findCurrency(value: string): Currency | undefined {
    const { native, stablecoin, wrappedNative } = this.currencies();
    return [native, stablecoin, wrappedNative].find((currency) => currency.address === value);
  }

  /** A base58 address of 32 bytes; case matters (SPEC §4.6), and an EVM address is not one. */
  isValidAddress(value: string): boolean {
    return isAddress(value);
  }

  normalizeAddress(value: string): string {
    return value;
  }

  buildDepositSteps(params: DepositStepParams): Promise<QuoteStep[]> {
    const { accounts } = this.booted();
    return buildSvmDepositSteps({ ...params, chainId: this.chainId, depository: accounts.depository.address });
  }

  async openDepositAddress(): Promise<{ address: string; steps: QuoteStep[] }> {
    throw new SvmCheatNotSupportedError(`chain ${this.chainId} (SVM) has no deposit addresses yet (useDepositAddress)`);
  }

  async sweepDepositAddress(): Promise<{ txHash: Hex; status: 'success' | 'failure' }> {
    throw new SvmCheatNotSupportedError(`chain ${this.chainId} (SVM) has no deposit addresses to sweep`);
  }

  /** A fill: the base fee, plus the rent of the recipient's token account when it has to be created. */
  fillGasCost(currency: Currency, _action?: DestinationAction['kind']): { amount: bigint; currency: Currency } {
    return { amount: LAMPORTS_PER_SIGNATURE + (currency.isNative ? 0n : this.tokenAccountRent()), currency: this.nativeCurrency() };
  }

  /** Compute units are not priced (no priority fee): a transaction costs its base fee. */
  gasCostOf(_units: bigint): { amount: bigint; currency: Currency } {
    return { amount: LAMPORTS_PER_SIGNATURE, currency: this.nativeCurrency() };
  }

  refundGasCost(currency: Currency): { amount: bigint; currency: Currency } {
    return this.fillGasCost(currency);
  }

  depositGasCost(): bigint {
    return LAMPORTS_PER_SIGNATURE;
  }

  liquidity(): ChainLiquidity {
    const { native, wrappedNative } = this.currencies();
    return { nativeCurrency: native, wrappedNative, pools: [] };
  }

  async readPoolReserves(pool: string): Promise<{ reserve0: bigint; reserve1: bigint }> {
    throw new ChainError(`chain ${this.chainId} (SVM) has no pool ${pool}`);
  }

  async simulateSolverFill(payment: SolverPayment): Promise<FillSimulation> {
    try {
      const simulation = await this.solverWallet().simulate(payment);
      if (simulation.err === null) return { ok: true, gasUnits: simulation.unitsConsumed };
      return failedSimulation(describeSvmTransactionError(simulation.err), simulation.err);
    } catch (error) {
      return failedSimulation(error instanceof Error ? error.message : String(error), 'FillNotSupported');
    }
  }

  async failedTransactionFacts(txHash: Hex): Promise<FailedTransactionFacts> {
    const record = this.record(txHash);
    const message = record.err === null ? 'the transaction succeeded' : describeSvmTransactionError(record.err);
    return {
      callData: { from: record.accountKeys[0]! as string, to: record.accountKeys[record.decoded.message.instructions[0]?.programAddressIndex ?? 0]! as string, data: '0x', value: 0n },
      errorName: errorNameOf(record.err),
      message,
      revert: { kind: 'reasonString', reason: message, data: '0x' },
    };
  }

  async balanceOf(owner: string, currency: Currency): Promise<bigint> {
    const { ledger } = this.booted();
    if (currency.isNative) return ledger.balance(address(owner));
    const token = readTokenAccount(ledger.account(await associatedTokenAccount(address(owner), address(currency.address))));
    return token?.amount ?? 0n;
  }

  onObservation(listener: (observation: ChainObservation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async indexTransaction(txHash: string): Promise<void> {
    const record = this.booted().ledger.transaction(txHash);
    if (record) this.watcher?.index(record);
  }

  /** The watcher hears every transaction as it is mined: there is nothing to catch up on. */
  async syncNow(): Promise<void> {}

  async sendSolverPayment(kind: 'fill' | 'refund', payment: SolverPayment, options: SolverSendOptions = {}): Promise<SentSolverTransaction> {
    return { txHash: await this.solverWallet().send(kind, payment, options), chainId: this.chainId };
  }

  async signSolverPaymentWithoutSending(kind: 'fill' | 'refund', payment: SolverPayment): Promise<SentSolverTransaction> {
    return { txHash: (await this.solverWallet().sign(kind, payment)).txHash, chainId: this.chainId };
  }

  async hasTransaction(txHash: Hex): Promise<boolean> {
    return this.booted().ledger.transaction(txHash) !== undefined;
  }

  async awaitSolverTransaction(txHash: Hex, kind: 'fill' | 'refund', payment: SolverPayment): Promise<TransactionEntry> {
    const record = this.record(txHash);
    const saved = this.options.solverTransactions.find(payment.requestId, kind);
    if (saved) this.options.solverTransactions.setState(saved.id, record.err === null ? 'confirmed' : 'failed');
    // who received what, as the ledger shows it
    const delivered = creditsTo(record, payment.recipient);
    const toRecipient = delivered.find((credit) => credit.currency === payment.currency.address)?.amount ?? 0n;
    return this.entryOf(record, kind, {
      from: this.keys.solver.address as Hex,
      to: payment.recipient as Hex,
      currency: payment.currency.address,
      amount: record.err === null ? toRecipient : payment.amount,
      deliveries: delivered.map((credit) => ({ to: payment.recipient as Hex, currency: credit.currency as Hex, amount: credit.amount })),
    });
  }

  indexedDepositEntry(deposit: IndexedDeposit): TransactionEntry {
    return indexedDepositEntry(deposit, this.chainId, this.keys.depository.address as Hex);
  }


  async depositTransactionEntry(deposit: IndexedDeposit, status: 'success' | 'failure'): Promise<TransactionEntry> {
    const indexed = { ...this.indexedDepositEntry(deposit), status };
    const record = this.booted().ledger.transaction(deposit.txHash);
    if (!record) return indexed;
    return { ...this.entryOf(record, 'deposit', indexed.data), status };
  }

  async sendUserTransaction(privateKey: string, item: Record<string, unknown>): Promise<UserTransaction> {
    const data = (item.data ?? item) as { instructions?: SvmStepInstruction[] };
    if (!Array.isArray(data.instructions)) throw new ChainError(`chain ${this.chainId} (SVM): a step item's data carries instructions`);
    const signer = await this.userSigner(privateKey);
    return this.sendAs(signer, data.instructions.map(fromStepInstruction));
  }

  async transferFromUser(privateKey: string, to: string, currency: Currency, amount: bigint): Promise<UserTransaction> {
    const signer = await this.userSigner(privateKey);
    return this.sendAs(signer, await transferInstructions({ from: signer, to: address(to), payer: signer, currency, amount }));
  }

  /** A stable address for `label`: 32 bytes of its hash, in base58. */
  addressForLabel(label: string): string {
    return getBase58Decoder().decode(createHash('sha256').update(`intentsim-svm-label:${label}`).digest());
  }

  async deployFixtureContract(): Promise<string> {
    throw new SvmCheatNotSupportedError(`chain ${this.chainId} (SVM) deploys no fixture contracts (they are EVM contracts)`);
  }

  encodeContractCall(_contract: ContractAbiRef): string {
    throw new SvmCheatNotSupportedError(`chain ${this.chainId} (SVM) has no contract calls to encode`);
  }

  async signContractMessage(): Promise<ContractSignature> {
    throw new SvmCheatNotSupportedError(`chain ${this.chainId} (SVM) has no fixture contracts to sign for`);
  }

  async setBlockedByIssuer(): Promise<UserTransaction> {
    throw new SvmCheatNotSupportedError(`chain ${this.chainId} (SVM): the stablecoin's issuer blocklist is simulated on EVM chains only`);
  }

  async mine(blocks = 1): Promise<void> {
    this.booted().ledger.mine(blocks);
  }

  async isPending(): Promise<boolean> {
    return false; // no mempool: a transaction is mined as it arrives
  }

  async setCode(): Promise<void> {
    throw new SvmCheatNotSupportedError(`chain ${this.chainId} (SVM) cannot replace code`);
  }

  async setAutomine(enabled: boolean): Promise<void> {
    if (!enabled) throw new SvmCheatNotSupportedError(`chain ${this.chainId} (SVM) mines every transaction as it arrives (no mempool to hold it)`);
  }

  async setIntervalMining(seconds: number): Promise<void> {
    if (seconds !== 0) throw new SvmCheatNotSupportedError(`chain ${this.chainId} (SVM) mines a slot per transaction; interval mining is not simulated`);
  }

  async snapshot(): Promise<string> {
    throw new SvmCheatNotSupportedError(`chain ${this.chainId} (SVM): snapshot/revert is not simulated yet`);
  }

  async revert(snapshotId: string): Promise<void> {
    throw new SvmCheatNotSupportedError(`chain ${this.chainId} (SVM): no snapshot ${snapshotId}`);
  }

  async reorg(): Promise<void> {
    throw new SvmCheatNotSupportedError(`chain ${this.chainId} (SVM): reorgs do not apply (a slot is final once mined)`);
  }

  async setNextBlockTimestamp(unixSeconds: number): Promise<void> {
    this.booted().ledger.setNextBlockTimestamp(unixSeconds);
  }

  /** Slot times follow the virtual clock, which `advanceSimulationTime` moves right after this. */
  async increaseTime(): Promise<void> {}

  private async sendAs(signer: Awaited<ReturnType<typeof createKeyPairSignerFromPrivateKeyBytes>>, instructions: Parameters<SvmLedger['signWire']>[1]): Promise<UserTransaction> {
    const { ledger } = this.booted();
    const wire = await ledger.signWire(signer, instructions);
    try {
      const record = ledger.submit(wire, { preflight: false });
      return { txHash: record.signature, status: record.err === null ? 'success' : 'failure', blockNumber: Number(record.slot) };
    } catch (error) {
      if (error instanceof SvmTransactionRejectedError) throw new ChainError(`chain ${this.chainId} refused the transaction: ${error.message}`, { cause: error });
      throw error;
    }
  }

  /** A base58 secret key (64 bytes, or the 32-byte seed) as a signer. */
  private async userSigner(privateKey: string): Promise<Awaited<ReturnType<typeof createKeyPairSignerFromPrivateKeyBytes>>> {
    const bytes = getBase58Encoder().encode(privateKey);
    return createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(bytes.subarray(0, 32)));
  }

  private entryOf(record: SvmTransactionRecord, type: TransactionEntry['type'], data: TransactionEntry['data']): TransactionEntry {
    const block = this.booted().ledger.block(record.slot);
    return {
      txHash: record.signature as Hex,
      chainId: this.chainId,
      type,
      fee: record.fee,
      feeUsdMicros: usdMicrosOf(record.fee, this.nativeCurrency()),
      block: Number(record.slot),
      blockHash: (block?.blockhash ?? '') as Hex,
      timestamp: record.blockTime,
      status: record.err === null ? 'success' : 'failure',
      data,
    };
  }

  private record(txHash: string): SvmTransactionRecord {
    const record = this.booted().ledger.transaction(txHash);
    if (!record) throw new ChainError(`chain ${this.chainId}: no transaction ${txHash}`);
    return record;
  }

  private tokenAccountRent(): bigint {
    return this.booted().ledger.svm.minimumBalanceForRentExemption(BigInt(TOKEN_ACCOUNT_SIZE));
  }

  private currencies(): SvmCurrencies {
    return this.booted().currencies;
  }

  private solverWallet(): SvmSolverWallet {
    if (!this.wallet) throw new Error(`chain ${this.chainId} is not started`);
    return this.wallet;
  }

  private booted(): { ledger: SvmLedger; endpoints: SvmRpcEndpoints; accounts: SvmAccounts; currencies: SvmCurrencies } {
    if (!this.ledger_ || !this.endpoints || !this.accounts_ || !this.currencies_) throw new Error(`chain ${this.chainId}: its ledger is not started`);
    return { ledger: this.ledger_, endpoints: this.endpoints, accounts: this.accounts_, currencies: this.currencies_ };
  }
}

function errorNameOf(err: SvmTransactionRecord['err']): string {
  if (err === null) return 'None';
  return typeof err === 'string' ? err : (Object.keys(err)[0] ?? 'TransactionError');
}

function failedSimulation(message: string, err: unknown): FillSimulation {
  return { ok: false, errorName: errorNameOf(err as SvmTransactionRecord['err']), message, revert: { kind: 'reasonString', reason: message, data: '0x' } };
}
