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
import type { BvmKindOptions, ChainAdapterContext } from '../chainAdapterContext';
import type { ChainAdapter, ChainGasCosts, ChainObservation, DepositStepParams, WorldRevertSync } from '../ChainAdapter';
import type { SolverWallet } from '../SolverWallet';
import type { DepositAddressCapability } from '../capabilities/DepositAddressCapability';
import { BvmChainCheats } from './BvmChainCheats';
import { BvmUserWallet } from './BvmUserWallet';
import { SolverBalanceTooLowError } from '../SolverBalanceTooLowError';
import { depositKeyFor, type BvmAccounts, addressOfScript, outputScriptOf, formatBtc, type BvmLedger, type BvmTransactionRecord, BvmNode, BVM_TEST_ACCOUNT_OUTPUTS, p2wpkhFee, BvmUpstreamError } from '../../nodes/bvm';
import { BTC_CURRENCY_ADDRESS, bvmNativeCurrency } from './bvmCurrencies';
import { BVM_DEPOSIT_CONFIRMATIONS, BvmDepositWatcher } from './BvmDepositWatcher';
import { BvmSolverWallet } from './BvmSolverWallet';
import { BvmChainHistory } from './BvmChainHistory';
import type { DoubleSpendCapability } from '../capabilities/DoubleSpendCapability';
import { buildBvmDepositSteps } from './buildBvmDepositSteps';
import { minedTransactionEntry } from '../../domain/request/minedTransactionEntry';
import { checkForkUpstream } from '../checkForkUpstream';
import { shownUpstream } from '../../config/shownUpstream';

export interface BvmChainOptions extends ChainAdapterContext, BvmKindOptions {
  metadata: ChainMetadata;
  /** `--chain-port`: the JSON-RPC's port, the Esplora API on the next one (both on the context's `host`); undefined: free ones. */
  port?: number;
}

/** A payment's fee estimate: two p2wpkh inputs, payment and change. */
const TYPICAL_FEE = p2wpkhFee(2, 2);

/**
 * The Bitcoin-style chain (SPEC §1.8, vmType `bvm`): `BvmLedger` in-process behind the
 * project's own Bitcoin Core-compatible JSON-RPC, with the simulator's accounts funded at
 * genesis, a watcher that reads deposits from the mempool and the blocks, and the solver's
 * wallet. Every quote from this chain pays into the request's own deposit address (a key the
 * solver derives), with an unsigned PSBT for the user's wallet to sign. This class is the
 * ChainAdapter façade.
 *
 * With `--db` the ledger is durable (`BvmLedgerJournal`): a restart, even after SIGKILL, comes
 * back with the same blocks, mempool and block timer, and the watcher catches up on what it had
 * not handled.
 *
 * Reorgs, snapshots and a user's double spend are `BvmChainHistory`'s; the watcher follows
 * deposits through them (back to the mempool, re-confirmed, or gone).
 *
 * With `forks` naming it, the node reads through to an upstream Esplora (`BvmReadThrough`): a
 * user's outputs are read before a quote's PSBT or a balance, and a transaction's inputs before
 * it is accepted; the simulator's own keys (solver, deposit addresses) are not read.
 *
 * LIMITATIONS: p2wpkh inputs only; blocks only on request (or every `--bvm-block-time` seconds);
 * without `--db` state lives in memory (a restart starts from genesis again).
 */
export class BvmChain implements ChainAdapter {
  readonly vmType = 'bvm' as const;
  readonly chainId: number;
  /**
   * Every deposit pays the request's own address, a key the solver holds (nothing to sweep); a new
   * quote for the same user and route as an earlier unpaid request reuses its deposit address
   * (SPEC §2.3 `supersededByRequestId`).
   */
  readonly depositAddresses: DepositAddressCapability = { open: (params) => this.openDepositAddress(params), regeneratesDepositAddresses: true };
  /** A Bitcoin transaction has no gas: its fee is its size at the fee rate (a typical payment's, here). */
  readonly gasCosts: ChainGasCosts = {
    fill: () => ({ amount: TYPICAL_FEE, currency: this.native }),
    ofGasUnits: () => ({ amount: TYPICAL_FEE, currency: this.native }),
    refund: () => ({ amount: TYPICAL_FEE, currency: this.native }),
    deposit: () => TYPICAL_FEE,
  };
  readonly userWallet: BvmUserWallet;
  readonly cheats: BvmChainCheats;
  private readonly listeners = new Set<(observation: ChainObservation) => void>();
  private readonly node: BvmNode;
  private watcher: BvmDepositWatcher | undefined;
  private wallet: BvmSolverWallet | undefined;
  private readonly native: Currency;
  private readonly stopWaiting = new Set<() => void>();
  /** Reorgs, snapshots and double spends on the node's ledger. */
  private readonly history: BvmChainHistory;

  constructor(private readonly options: BvmChainOptions) {
    this.chainId = options.metadata.id;
    this.native = bvmNativeCurrency(this.chainId);
    const { clock, mnemonic, accountCount, host, port, blockTimeSeconds } = options;
    const upstream = options.forks[this.chainId];
    this.node = new BvmNode({ chainId: this.chainId, clock, mnemonic, accountCount, host, ...(port === undefined ? {} : { port }), blockTimeSeconds, ...(upstream ? { fork: { esploraUrl: upstream.url } } : {}) });
    this.userWallet = new BvmUserWallet({ chainId: this.chainId, ledger: () => this.ledger, readThrough: () => this.node.readThrough });
    this.history = new BvmChainHistory({ chainId: this.chainId, ledger: () => this.ledger, miner: () => this.keys.miner });
    this.cheats = new BvmChainCheats({ chainId: this.chainId, node: this.node, history: this.history });
  }

  /** The ledger (tests and cheat calls read it). */
  get ledger(): BvmLedger {
    return this.booted().ledger;
  }

  /** The chain's keys: test accounts, solver, miner (after `startNode`). */
  get keys(): BvmAccounts {
    return this.booted().accounts;
  }

  async startNode(): Promise<void> {
    await checkForkUpstream(this.chainId, () => this.node.start(this.options.ledgerJournal), (error) => error instanceof BvmUpstreamError);
  }

  async start(): Promise<void> {
    await this.startNode();
    const { ledger, accounts } = this.booted();
    this.watcher = new BvmDepositWatcher({
      chainId: this.chainId,
      currency: BTC_CURRENCY_ADDRESS,
      ledger,
      depositAddresses: this.options.depositAddresses,
      chainIndex: this.options.chainIndex,
      clock: this.options.clock,
      confirmations: this.options.depositConfirmations[this.chainId] ?? BVM_DEPOSIT_CONFIRMATIONS,
      emit: (observation) => this.listeners.forEach((listener) => listener(observation)),
    });
    // after a restart: deposits mined or waiting in the mempool that this run has not reported yet
    this.watcher.catchUp();
    this.wallet = new BvmSolverWallet({
      chainId: this.chainId,
      ledger,
      solver: accounts.solver,
      store: this.options.solverTransactions,
      clock: this.options.clock,
      minedRecord: (txid) => this.minedRecord(txid),
      entryOf: (record, type, data) => this.entryOf(record, type, data),
      normalizeAddress: (address) => this.normalizeAddress(address),
    });
    // the same --bvm-block-time as the run that journaled the timer: it carries on where it stood
    this.node.resumeBlockTimer();
  }

  async stop(): Promise<void> {
    this.watcher?.stop();
    this.stopWaiting.forEach((stop) => stop());
    await this.node.stop();
  }

  describe(): ChainDescription {
    const { accounts, rpcUrl } = this.booted();
    const { metadata } = this.options;
    const solver = accounts.solver.address;
    return {
      id: this.chainId,
      name: metadata.name,
      displayName: metadata.displayName,
      vmType: 'bvm',
      httpRpcUrl: rpcUrl,
      wsRpcUrl: '',
      nativeCurrency: this.native,
      erc20Currencies: [],
      contracts: contractsAllAt(solver),
      depository: solver,
      solverAddress: solver,
      summaryContracts: [
        { label: 'solver', address: solver, note: '(deposits go to per-request deposit addresses whose keys the solver derives)' },
        { label: 'miner', address: accounts.miner.address, note: '(mined the genesis blocks)' },
      ],
      fundedAccounts: accounts.testAccounts.map((account) => ({ address: account.address, privateKey: account.wif })),
      fundedAccountsNote: `${BVM_TEST_ACCOUNT_OUTPUTS.count} confirmed outputs of ${formatBtc(BVM_TEST_ACCOUNT_OUTPUTS.value)} BTC each; keys in WIF; Esplora REST API ${this.node.esploraUrl}`,
      logFile: 'none (the ledger runs in-process)',
      clientUrls: { esploraUrl: this.node.esploraUrl },
      ...(this.node.fork ? { fork: { url: shownUpstream(this.node.fork.esploraUrl), note: "its Esplora, read at its current state (not pinned to a block): an address's outputs and a transaction the first time they are asked for, kept; nothing is sent upstream" } } : {}),
    };
  }

  nativeCurrency(): Currency {
    return this.native;
  }

  findCurrency(value: string): Currency | undefined {
    return value === BTC_CURRENCY_ADDRESS ? this.native : undefined;
  }

  /** A regtest address (`bcrt1…`, or base58 `m`/`n`/`2`); an EVM address is not one. */
  isValidAddress(value: string): boolean {
    return outputScriptOf(value) !== undefined;
  }

  /** Bech32 addresses compare in lower case; base58 ones as they are. */
  normalizeAddress(value: string): string {
    return /^bcrt1/i.test(value) ? value.toLowerCase() : value;
  }

  async buildDepositSteps(params: DepositStepParams): Promise<QuoteStep[]> {
    return (await this.depositAddresses.open(params)).steps;
  }

  /**
   * Every BVM deposit pays into the request's own address (a key the solver derives from the
   * request id), registered and watched from now on; the step's PSBT pays it from the user's coins.
   * A regenerated request (`reuseDepositAddress`) pays the earlier request's address instead.
   */
  private async openDepositAddress(params: DepositStepParams): Promise<{ address: string; steps: QuoteStep[] }> {
    if (params.reuseDepositAddress) {
      // a regenerated request: the earlier request's address, handed over when the quote is recorded
      const address = params.reuseDepositAddress;
      await this.readUpstreamAddress(params.user);
      return { address, steps: buildBvmDepositSteps({ user: params.user, amount: params.amount, depositAddress: address, ledger: this.ledger }) };
    }
    await this.readUpstreamAddress(params.user);
    const address = this.depositAddressFor(params.requestId);
    const store = this.options.depositAddresses;
    // a price (request id 0x00…00) records nothing
    const recorded = !/^0x0{64}$/.test(params.requestId);
    if (recorded && !store.at(this.chainId, address) && !store.forRequest(params.requestId)) {
      store.open({ chainId: this.chainId, address: address as Hex, requestId: params.requestId, createdAt: this.options.clock.now() });
    }
    return { address, steps: buildBvmDepositSteps({ user: params.user, amount: params.amount, depositAddress: address, ledger: this.ledger }) };
  }

  /** No pools and no wrapped BTC: the solver pays BTC from its own coins whatever the origin asset. */
  liquidity(): ChainLiquidity {
    return { nativeCurrency: this.native, wrappedNative: this.native, pools: [], inventory: [this.native] };
  }


  async balanceOf(owner: string, currency: Currency): Promise<bigint> {
    const script = outputScriptOf(owner);
    if (!currency.isNative || !script) return 0n;
    await this.node.readThrough?.address(script);
    return this.ledger.coinsOf(script, true).reduce((sum, coin) => sum + coin.value, 0n);
  }

  onObservation(listener: (observation: ChainObservation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async indexTransaction(txHash: string): Promise<void> {
    this.watcher?.index(txHash.replace(/^0x/, '').toLowerCase());
  }

  /** The watcher hears every mempool transaction and block as it happens; after a world revert it follows the ledger again from the index put back, and the block timer runs as at the snapshot. */
  async syncNow(options: WorldRevertSync = {}): Promise<void> {
    if (!options.afterWorldRevert) return;
    this.watcher?.reload();
    await options.restoreMining?.();
  }

  indexedDepositEntry(deposit: IndexedDeposit): TransactionEntry {
    const entry = indexedDepositEntry(deposit, this.chainId, this.keys.solver.address as Hex);
    const output = this.ledger.transaction(deposit.txHash)?.tx.outs[deposit.logIndex];
    const to = output ? addressOfScript(output.script) : undefined;
    return to ? { ...entry, data: { ...entry.data, to: to as Hex } } : entry;
  }

  async depositTransactionEntry(deposit: IndexedDeposit, status: 'success' | 'failure'): Promise<TransactionEntry> {
    const indexed = { ...this.indexedDepositEntry(deposit), status };
    const record = this.ledger.transaction(deposit.txHash);
    if (!record) return indexed;
    return { ...this.entryOf(record, 'deposit', indexed.data), status };
  }

  /** A fork reads an address's outputs from its upstream the first time it is asked (a quote's PSBT, a balance); no fork: nothing. */
  private async readUpstreamAddress(address: string): Promise<void> {
    const script = outputScriptOf(address);
    if (script) await this.node.readThrough?.address(script);
  }

  /** The address of a request's deposit key. */
  depositAddressFor(requestId: string): string {
    return depositKeyFor(this.keys, requestId).address;
  }

  /**
   * The record once mined; undefined if it leaves the mempool unmined. Stopping the chain rejects
   * the wait (the payment is still in flight: nothing about it may be concluded).
   */
  private minedRecord(txid: string): Promise<BvmTransactionRecord | undefined> {
    const ledger = this.ledger;
    const known = ledger.transaction(txid);
    if (!known) return Promise.resolve(undefined);
    if (known.height !== undefined) return Promise.resolve(known);
    return new Promise((resolve, reject) => {
      const detach = () => {
        detachBlock();
        detachEviction();
        this.stopWaiting.delete(stop);
      };
      const done = (record: BvmTransactionRecord | undefined) => {
        detach();
        resolve(record);
      };
      const stop = () => {
        detach();
        reject(new ChainError(`chain ${this.chainId} stopped while transaction ${txid} waited in its mempool`));
      };
      const detachBlock = ledger.onBlock((_block, records) => {
        const mined = records.find((record) => record.txid === txid);
        if (mined) done(mined);
      });
      const detachEviction = ledger.onEviction((record) => {
        if (record.txid === txid) done(undefined);
      });
      this.stopWaiting.add(stop);
    });
  }

  private entryOf(record: BvmTransactionRecord, type: TransactionEntry['type'], data: TransactionEntry['data']): TransactionEntry {
    const block = record.height === undefined ? undefined : this.ledger.block(record.height);
    const facts = { txHash: record.txid, fee: record.fee, feeCurrency: this.native, block: block?.height ?? 0, blockHash: block?.hash ?? '', timestamp: block?.time ?? record.time, status: 'success' as const };
    return minedTransactionEntry(this.chainId, facts, type, data);
  }

  /** The solver's wallet (after `start`), see `BvmSolverWallet`. */
  get solverWallet(): SolverWallet {
    if (!this.wallet) throw new Error(`chain ${this.chainId} is not started`);
    return this.wallet;
  }

  private booted(): { ledger: BvmLedger; rpcUrl: string; accounts: BvmAccounts } {
    return { ledger: this.node.ledger, rpcUrl: this.node.rpcUrl, accounts: this.node.accounts };
  }
}
