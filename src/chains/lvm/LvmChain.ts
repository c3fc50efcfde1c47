import type { Address, Hex } from 'viem';
import type { ChainMetadata } from '../../../fixtures/chains';
import { contractsAllAt, type ChainDescription } from '../../domain/chain/chainDescription';
import type { Currency } from '../../domain/chain/currency';
import { indexedDepositEntry, type IndexedDeposit } from '../../domain/chain/observedDeposit';
import type { SolverPayment } from '../../domain/fill/solverPayment';
import type { ChainLiquidity } from '../../domain/quote/planRoute';
import type { QuoteStep } from '../../domain/quote/quoteStep';
import type { TransactionEntry } from '../../domain/request/requestRecord';
import { ChainError } from '../../errors/IntentsimError';
import { UnsupportedOnChainError } from '../../errors/chainErrors';
import type { ChainAdapterContext, LvmKindOptions } from '../chainAdapterContext';
import type { ChainAdapter, ChainGasCosts, ChainObservation, DepositStepParams } from '../ChainAdapter';
import type { SolverWallet } from '../SolverWallet';
import { LvmChainCheats } from './LvmChainCheats';
import { LvmAccountControls } from './LvmAccountControls';
import { LvmDepositWatcher } from './LvmDepositWatcher';
import { LVM_ACCOUNT_INDEX, LvmUserWallet } from './LvmUserWallet';
import { type LvmLedger, type LvmTransaction, LvmNode, LVM_TRANSFER_FEE, ROUTE_PERP, USDC_ASSET, type LvmGenesis, isLvmUpstreamFailure } from '../../nodes/lvm';
import { checkForkUpstream } from '../checkForkUpstream';
import { LvmFillNotSupportedError, LvmSolverWallet } from './LvmSolverWallet';
import { buildLvmWithdrawalSteps } from './buildLvmWithdrawalSteps';
import { LVM_CURRENCY_ADDRESS, lvmCollateralCurrency } from './lvmCurrencies';
import { minedTransactionEntry } from '../../domain/request/minedTransactionEntry';
import { shownUpstream } from '../../config/shownUpstream';

export interface LvmChainOptions extends ChainAdapterContext, LvmKindOptions {
  metadata: ChainMetadata;
  /** `--chain-port`: the exchange's HTTP API's port (it listens on the context's `host`); undefined: a free one. */
  port?: number;
}

/**
 * The perpetuals-exchange chain (SPEC §4.6, vmType `lvm`): an in-process ledger of exchange
 * accounts (`LvmLedger`) behind the exchange's own HTTP API (`LvmApiServer`), the simulator's
 * accounts at genesis, a deposit watcher reading the ledger's transfers, and the solver's account.
 * "Addresses" on this chain are account indexes (decimal strings); its one currency is USDC
 * collateral at address `0`. This class is the ChainAdapter façade; a user's side (label accounts,
 * transfers through the API) is `LvmUserWallet`.
 *
 * LIMITATIONS against the real exchange: no trading (no markets, positions or margin; collateral
 * only moves by transfer); API keys are bearer keys (no signed transactions); no L1 deposits or
 * withdrawals; one transfer per block, final once executed (no reorgs, no mempool). State lives in
 * memory; with `--db` every change is journaled first and replayed at start (`LvmLedgerJournal`),
 * without it a start begins at genesis.
 */
export class LvmChain implements ChainAdapter {
  readonly vmType = 'lvm' as const;
  readonly chainId: number;
  private readonly listeners = new Set<(observation: ChainObservation) => void>();
  private readonly node: LvmNode;
  private readonly ledger_: LvmLedger;
  private watcher: LvmDepositWatcher | undefined;
  private wallet: LvmSolverWallet | undefined;
  private readonly currency: Currency;
  /** A user's side (see `LvmUserWallet`). */
  readonly userWallet: LvmUserWallet;
  readonly cheats: LvmChainCheats;
  /** A fill, refund or deposit is one transfer: the exchange's fee, in USDC. */
  readonly gasCosts: ChainGasCosts = {
    fill: () => ({ amount: LVM_TRANSFER_FEE, currency: this.currency }),
    ofGasUnits: () => ({ amount: LVM_TRANSFER_FEE, currency: this.currency }),
    refund: () => ({ amount: LVM_TRANSFER_FEE, currency: this.currency }),
    deposit: () => LVM_TRANSFER_FEE,
  };

  constructor(private readonly options: LvmChainOptions) {
    this.chainId = options.metadata.id;
    const upstream = options.forks[this.chainId];
    this.node = new LvmNode({ chainId: this.chainId, clock: options.clock, mnemonic: options.mnemonic, host: options.host, ...(options.port === undefined ? {} : { port: options.port }), ...(upstream ? { fork: { apiUrl: upstream.url } } : {}) });
    this.ledger_ = this.node.ledger;
    this.currency = lvmCollateralCurrency(this.chainId);
    this.cheats = new LvmChainCheats({ chainId: this.chainId, ledger: this.ledger_, exchangeAccounts: new LvmAccountControls({ chainId: this.chainId, ledger: this.ledger_ }) });
    this.userWallet = new LvmUserWallet({ chainId: this.chainId, apiUrl: () => this.rpcUrl, ledger: this.ledger_, apiKeyOf: (index) => this.node.apiKeyOf(index) });
  }

  /** The exchange API's base URL (after `startNode`). */
  get rpcUrl(): string {
    return this.node.apiUrl;
  }

  /** The ledger (tests and cheat calls read it). */
  get ledger(): LvmLedger {
    return this.ledger_;
  }

  /** The accounts made at start: treasury, solver, one per test account (after `start`). */
  get genesis(): LvmGenesis {
    const genesis = this.node.genesis;
    if (!genesis) throw new Error(`chain ${this.chainId}: its ledger is not started`);
    return genesis;
  }

  async startNode(): Promise<void> {
    await this.node.listen();
  }

  async start(): Promise<void> {
    await this.startNode();
    if (this.node.genesis) return;
    await checkForkUpstream(this.chainId, () => this.node.checkUpstream(this.options.ledgerJournal), isLvmUpstreamFailure);
    const accounts = this.options.accounts();
    const owners = { deployer: accounts.deployer.address, solver: accounts.solver.address, testAccounts: accounts.testAccounts.map((account) => account.address) };
    // with --db: the changes journaled by an earlier run are made again, before anyone listens
    const genesis = this.node.writeGenesis(owners, this.options.ledgerJournal);
    this.watcher = new LvmDepositWatcher({
      chainId: this.chainId,
      ledger: this.ledger_,
      depositoryIndex: genesis.solver.index,
      chainIndex: this.options.chainIndex,
      emit: (observation) => this.listeners.forEach((listener) => listener(observation)),
    });
    // deposits a stopped or killed run journaled but did not index (the index dedupes the rest)
    this.watcher.catchUp();
    this.wallet = new LvmSolverWallet({
      chainId: this.chainId,
      ledger: this.ledger_,
      solverIndex: genesis.solver.index,
      apiKey: genesis.solver.apiKey,
      store: this.options.solverTransactions,
      clock: this.options.clock,
      entryOf: (tx, type, data) => this.entryOf(tx, type, data),
      currencyAddress: LVM_CURRENCY_ADDRESS as Address,
    });
  }

  async stop(): Promise<void> {
    this.watcher?.stop();
    await this.node.stop();
  }

  describe(): ChainDescription {
    const { metadata } = this.options;
    const genesis = this.genesis;
    const depository = String(genesis.solver.index);
    return {
      id: this.chainId,
      name: metadata.name,
      displayName: metadata.displayName,
      vmType: 'lvm',
      httpRpcUrl: this.rpcUrl,
      wsRpcUrl: '',
      nativeCurrency: this.currency,
      erc20Currencies: [],
      contracts: contractsAllAt(depository),
      depository,
      solverAddress: depository,
      summaryContracts: [
        { label: 'exchange API', address: this.rpcUrl, note: '(accounts, transfers: docs/chains/lighter.md ("The perpetuals-exchange chain"))' },
        { label: 'depository', address: depository, note: `(the solver's account; withdrawals transfer to it with the request id as memo)` },
        { label: 'USDC (6 dec.)', address: LVM_CURRENCY_ADDRESS, note: `(asset ${USDC_ASSET.index}; transfer fee ${LVM_TRANSFER_FEE})` },
      ],
      fundedAccounts: genesis.testAccounts.map((account) => ({ address: String(account.index), privateKey: account.apiKey, owner: account.l1Address })),
      fundedAccountsNote: '1,000,000 USDC collateral each; account index, API key, owning EVM account',
      logFile: 'none (the ledger runs in-process)',
      // the same server as httpRpcUrl, named for what it is: the exchange has an HTTP API, no RPC
      clientUrls: { apiUrl: this.rpcUrl },
      ...(this.node.fork ? { fork: { url: shownUpstream(this.node.fork.apiUrl), note: 'its exchange API, read at its current state (not pinned to a block): an account the first time it is asked for, kept; local changes win; nothing is sent upstream' } } : {}),
    };
  }

  nativeCurrency(): Currency {
    return this.currency;
  }

  findCurrency(value: string): Currency | undefined {
    return value === LVM_CURRENCY_ADDRESS ? this.currency : undefined;
  }

  /** SPEC §4.6: an address here is the index of an account the exchange has (a decimal string); on a fork, any index (the upstream's accounts are read when first used). */
  isValidAddress(value: string): boolean {
    return LVM_ACCOUNT_INDEX.test(value) && (this.node.readThrough !== undefined || this.ledger_.account(Number(value)) !== undefined);
  }

  normalizeAddress(value: string): string {
    return value;
  }

  async buildDepositSteps(params: DepositStepParams): Promise<QuoteStep[]> {
    if (params.amount > BigInt(Number.MAX_SAFE_INTEGER)) {
      // a refusal of one argument value (an amount above a JSON integer), not of deposits
      throw new UnsupportedOnChainError(`the exchange's transfer carries amounts as JSON integers, up to ${Number.MAX_SAFE_INTEGER}; ${params.amount} is more`);
    }
    if (LVM_ACCOUNT_INDEX.test(params.user)) await this.node.readThrough?.accountIndex(Number(params.user));
    return buildLvmWithdrawalSteps({ ...params, depositoryIndex: this.genesis.solver.index });
  }

  liquidity(): ChainLiquidity {
    return { nativeCurrency: this.currency, wrappedNative: this.currency, pools: [], inventory: [this.currency] };
  }


  async balanceOf(owner: string, currency: Currency): Promise<bigint> {
    if (!LVM_ACCOUNT_INDEX.test(owner) || (currency.address as string) !== LVM_CURRENCY_ADDRESS) return 0n;
    await this.node.readThrough?.accountIndex(Number(owner));
    return this.ledger_.balance(Number(owner), USDC_ASSET.index, ROUTE_PERP);
  }

  onObservation(listener: (observation: ChainObservation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async indexTransaction(txHash: string): Promise<void> {
    const tx = this.ledger_.transaction(txHash);
    if (tx) this.watcher?.index(tx);
  }

  /** The watcher hears every transfer as it executes: there is nothing to catch up on. */
  async syncNow(): Promise<void> {}

  indexedDepositEntry(deposit: IndexedDeposit): TransactionEntry {
    return indexedDepositEntry(deposit, this.chainId, String(this.genesis.solver.index) as Hex);
  }

  async depositTransactionEntry(deposit: IndexedDeposit, status: 'success' | 'failure'): Promise<TransactionEntry> {
    const indexed = { ...this.indexedDepositEntry(deposit), status };
    const tx = this.ledger_.transaction(deposit.txHash);
    return tx ? { ...this.entryOf(tx, 'deposit', indexed.data), status } : indexed;
  }

  private entryOf(tx: LvmTransaction, type: TransactionEntry['type'], data: TransactionEntry['data']): TransactionEntry {
    // the hash in bare hex, the exchange's own form (SPEC §4.3)
    const facts = { txHash: tx.hash, fee: tx.usdcFee, feeCurrency: this.currency, block: tx.blockHeight, blockHash: tx.blockHash, timestamp: Math.floor(tx.executedAt / 1000), status: 'success' as const };
    return minedTransactionEntry(this.chainId, facts, type, data);
  }

  /** The solver's wallet (after `start`), see `LvmSolverWallet`. */
  get solverWallet(): SolverWallet {
    if (!this.wallet) throw new Error(`chain ${this.chainId} is not started`);
    return this.wallet;
  }
}
