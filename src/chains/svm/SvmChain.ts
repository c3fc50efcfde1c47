import { address, isAddress } from '@solana/kit';
import type { Hex } from 'viem';
import type { ChainMetadata } from '../../../fixtures/chains';
import { contractsAllAt, type ChainDescription } from '../../domain/chain/chainDescription';
import type { Currency } from '../../domain/chain/currency';
import { indexedDepositEntry, type IndexedDeposit } from '../../domain/chain/observedDeposit';
import type { SolverPayment } from '../../domain/fill/solverPayment';
import type { ChainLiquidity } from '../../domain/quote/planRoute';
import type { QuoteStep } from '../../domain/quote/quoteStep';
import type { TransactionEntry } from '../../domain/request/requestRecord';
import { ChainError } from '../../errors/IntentsimError';
import type { ChainAdapter, ChainGasCosts, ChainObservation, DepositStepParams } from '../ChainAdapter';
import type { SolverWallet } from '../SolverWallet';
import { SvmChainCheats } from './SvmChainCheats';
import { type SvmAccounts, SVM_AGGREGATOR_PROGRAM, SVM_AGGREGATOR_SOURCE, SVM_POOL_VENUES, type SvmLedger, type SvmTransactionRecord, type SvmRpcEndpoints, associatedTokenAccount, describeSvmTransactionError, LAMPORTS_PER_SIGNATURE, readTokenAccount } from '../../nodes/svm';
import { svmMarketCurrencies, type SvmCurrencies } from './svmCurrencies';
import { failedSvmSimulation, failedSvmTransactionFacts } from './svmFillErrors';
import { svmTransactionEntry } from './svmTransactionEntry';
import { creditsTo, SvmDepositWatcher } from './SvmDepositWatcher';
import { SvmSolverWallet } from './SvmSolverWallet';
import { buildSvmDepositSteps } from './buildSvmDepositSteps';
import type { ChildProcessInstance } from '../../process/ChildProcessInstance';
import { startSvmLedger, type StartedSvmLedger, type SvmLedgerStartOptions } from './startSvmLedger';
import { SvmUserWallet } from './SvmUserWallet';
import { svmChainFaults } from './SvmChainHistory';

export interface SvmChainOptions extends SvmLedgerStartOptions {
  metadata: ChainMetadata;
}

/**
 * The SVM chain (SPEC §4.6): LiteSVM in-process (`SvmLedger`) behind the project's own Solana
 * JSON-RPC, with the simulator's accounts and currencies at genesis, a deposit watcher reading
 * the ledger's transactions, and the solver's wallet. This class is the ChainAdapter façade.
 * With `validator` (`--svm validator`) a spawned `solana-test-validator` takes the ledger's place,
 * reached over its JSON-RPC only (`RpcSvmLedger`); everything else reads through `SvmLedgerAccess`.
 *
 * LIMITATIONS against a real cluster: one transaction per slot, `finalized` once mined until a
 * rollback or reorg cheat (`SvmChainHistory`, embedded only); no mempool (automine only); fills are
 * transfers (no pools, no wrap route, no destination calls). State lives in memory; with `--db`
 * every slot is journaled and applied again at the next start (`SvmLedgerJournal`).
 */
export class SvmChain implements ChainAdapter {
  readonly vmType = 'svm' as const;
  readonly chainId: number;
  private readonly listeners = new Set<(observation: ChainObservation) => void>();
  private started: StartedSvmLedger | undefined;
  private starting: Promise<void> | undefined;
  /** A user's wallet (see `SvmUserWallet`). */
  readonly userWallet: SvmUserWallet;
  readonly cheats: SvmChainCheats;
  /** A fill: the base fee, plus the rent of the recipient's token account when it has to be created; compute units are not priced (no priority fee). */
  readonly gasCosts: ChainGasCosts = {
    fill: (currency) => ({ amount: LAMPORTS_PER_SIGNATURE + (currency.isNative ? 0n : this.tokenAccountRent()), currency: this.nativeCurrency() }),
    ofGasUnits: () => ({ amount: LAMPORTS_PER_SIGNATURE, currency: this.nativeCurrency() }),
    refund: (currency) => this.gasCosts.fill(currency),
    deposit: () => LAMPORTS_PER_SIGNATURE,
  };
  private watcher: SvmDepositWatcher | undefined;
  private wallet: SvmSolverWallet | undefined;
  private validator: ChildProcessInstance<SvmRpcEndpoints> | undefined;

  constructor(private readonly options: SvmChainOptions) {
    this.chainId = options.metadata.id;
    this.userWallet = new SvmUserWallet({ chainId: this.chainId, ledger: () => this.booted().access });
    const faults = svmChainFaults({ ...options, chainId: this.chainId, history: () => this.booted().node?.history, ledger: () => this.booted().access, inProcessLedger: () => this.ledger, solver: () => this.keys.solver.address, emit: (observation) => this.listeners.forEach((listener) => listener(observation)) });
    // going back in history and dropping transactions: the embedded ledger only (`--svm validator` cannot)
    this.cheats = new SvmChainCheats({ chainId: this.chainId, ledger: () => this.booted().access, ...(options.validator ? {} : { history: faults.history, transactionFaults: faults.drops }) });
  }

  /** The in-process ledger (tests read it). */
  get ledger(): SvmLedger {
    const ledger = this.started?.node?.ledger;
    if (!ledger) throw new Error(`chain ${this.chainId}: its ledger is not started`);
    return ledger;
  }

  /** The chain's keys: test accounts, solver, depository (after `startNode`). */
  get keys(): SvmAccounts {
    return this.booted().accounts;
  }

  /** Starts the chain's ledger (LiteSVM in-process, or `--svm validator`); a second call waits for the first. */
  startNode(): Promise<void> {
    const starting =
      this.starting ??
      startSvmLedger(this.chainId, this.options, (process) => (this.validator = process)).then(
        (started) => void (this.started = started),
        (error: unknown) => {
          this.starting = undefined;
          throw error;
        },
      );
    this.starting = starting;
    return starting;
  }

  async start(): Promise<void> {
    await this.startNode();
    const { access: ledger, accounts } = this.booted();
    this.watcher = new SvmDepositWatcher({
      chainId: this.chainId,
      ledger,
      depository: accounts.depository.address,
      chainIndex: this.options.chainIndex,
      emit: (observation) => this.listeners.forEach((listener) => listener(observation)),
    });
    // deposits a killed process journaled but did not index (an indexed one is not reported again)
    await this.watcher.catchUp();
    this.wallet = new SvmSolverWallet({
      chainId: this.chainId,
      ledger,
      solver: accounts.solver,
      store: this.options.solverTransactions,
      clock: this.options.clock,
      entryOf: (record, type, data) => this.entryOf(record, type, data),
    });
  }

  async stop(): Promise<void> {
    this.watcher?.stop();
    await this.started?.access.close();
    await this.started?.node?.stop();
    await this.validator?.stop();
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
      erc20Currencies: [currencies.stablecoin, currencies.wrappedNative, ...svmMarketCurrencies(this.chainId)],
      contracts: contractsAllAt(depository),
      depository,
      solverAddress: accounts.solver.address,
      summaryContracts: [
        { label: 'depository', address: depository, note: '(a system account: deposits carry the request id in a Memo)' },
        { label: 'USDC (6 dec.)', address: currencies.stablecoin.address },
        { label: 'wrapped SOL', address: currencies.wrappedNative.address },
        { label: 'aggregator', address: SVM_AGGREGATOR_PROGRAM, note: `(simulated; routes ${svmMarketCurrencies(this.chainId).map((currency) => currency.symbol).join(', ')})` },
      ],
      fundedAccounts: accounts.testAccounts.map((account) => ({ address: account.address, privateKey: account.secretKeyBase58 })),
      fundedAccountsNote: '1000 SOL, 1,000,000 USDC, 100 wrapped SOL and $100,000 of each aggregator token (MEME, GOV, ORACLE, STSOL) each; keys in base58',
      logFile: this.validator ? this.validator.logFile : 'none (LiteSVM runs in-process)',
      ...(this.options.fork
        ? { fork: { url: this.options.fork.origin, note: `accounts read at first use, as the upstream has them then (${this.options.fork.slot === undefined ? 'restarted from the journal' : `from slot ${this.options.fork.slot} on`}; not pinned: no public Solana RPC serves past account state)` } }
        : {}),
    };
  }

  nativeCurrency(): Currency {
    return this.currencies().native;
  }

  findCurrency(value: string): Currency | undefined {
    const { native, stablecoin, wrappedNative } = this.currencies();
    return [native, stablecoin, wrappedNative, ...svmMarketCurrencies(this.chainId)].find((currency) => currency.address === value);
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
    return buildSvmDepositSteps({ ...params, chainId: this.chainId, depository: accounts.depository.address, stablecoinMint: accounts.stablecoinMint.address });
  }

  /** No pools: the solver pays SOL and USDC from inventory; an origin swap names the aggregator or its pool venues (SPEC §4.1 `includedOriginSwapSources`). */
  liquidity(): ChainLiquidity {
    const { native, wrappedNative, stablecoin } = this.currencies();
    return { nativeCurrency: native, wrappedNative, pools: [], inventory: [native, stablecoin], originSwapSources: [SVM_AGGREGATOR_SOURCE, ...SVM_POOL_VENUES] };
  }


  async balanceOf(owner: string, currency: Currency): Promise<bigint> {
    const { access } = this.booted();
    if (currency.isNative) return access.balance(address(owner));
    const token = readTokenAccount(await access.account(await associatedTokenAccount(address(owner), address(currency.address))));
    return token?.amount ?? 0n;
  }

  onObservation(listener: (observation: ChainObservation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async indexTransaction(txHash: string): Promise<void> {
    const record = await this.booted().access.transaction(txHash);
    if (record) await this.watcher?.index(record);
  }

  /** Reads what the chain mined since the last look (in-process: nothing to catch up on). */
  async syncNow(): Promise<void> {
    await this.booted().access.sync();
  }

  indexedDepositEntry(deposit: IndexedDeposit): TransactionEntry {
    return indexedDepositEntry(deposit, this.chainId, this.keys.depository.address as Hex);
  }

  async depositTransactionEntry(deposit: IndexedDeposit, status: 'success' | 'failure'): Promise<TransactionEntry> {
    const indexed = { ...this.indexedDepositEntry(deposit), status };
    const record = await this.booted().access.transaction(deposit.txHash);
    if (!record) return indexed;
    return { ...(await this.entryOf(record, 'deposit', indexed.data)), status };
  }

  private entryOf(record: SvmTransactionRecord, type: TransactionEntry['type'], data: TransactionEntry['data']): Promise<TransactionEntry> {
    return svmTransactionEntry(this.booted().access, { chainId: this.chainId, nativeCurrency: this.nativeCurrency() }, record, type, data);
  }

  private tokenAccountRent(): bigint {
    return this.booted().tokenAccountRent;
  }

  private currencies(): SvmCurrencies {
    return this.booted().currencies;
  }

  /** The solver's wallet (after `start`), see `SvmSolverWallet`. */
  get solverWallet(): SolverWallet {
    if (!this.wallet) throw new Error(`chain ${this.chainId} is not started`);
    return this.wallet;
  }

  private booted(): StartedSvmLedger {
    if (!this.started) throw new Error(`chain ${this.chainId}: its ledger is not started`);
    return this.started;
  }
}
