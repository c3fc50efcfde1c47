import { createHash } from 'node:crypto';
import type { Hex } from 'viem';
import type { ChainMetadata } from '../../../fixtures/chains';
import { contractsAllAt, type ChainDescription } from '../../domain/chain/chainDescription';
import type { Currency } from '../../domain/chain/currency';
import { indexedDepositEntry, type IndexedDeposit } from '../../domain/chain/observedDeposit';
import type { SolverPayment } from '../../domain/fill/solverPayment';
import type { ChainLiquidity, DestinationAction } from '../../domain/quote/planRoute';
import type { QuoteStep } from '../../domain/quote/quoteStep';
import type { TransactionEntry } from '../../domain/request/requestRecord';
import { usdMicrosOf } from '../../domain/money/usdValue';
import { ChainError } from '../../errors/IntentsimError';
import { UnsupportedOnChainError } from '../../errors/chainErrors';
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
  UserTransaction,
} from '../ChainAdapter';
import { SolverBalanceTooLowError } from '../SolverBalanceTooLowError';
import { bvmKeyFromWif, depositKeyFor, type BvmAccounts, type BvmKey } from '../../nodes/bitcoin/bvmAccounts';
import { addressOfScript, BVM_NETWORK, bitcoin, outputScriptOf } from '../../nodes/bitcoin/bvmCrypto';
import { BTC_CURRENCY_ADDRESS, bvmNativeCurrency } from './bvmCurrencies';
import { formatBtc, type BvmLedger, type BvmTransactionRecord } from '../../nodes/bitcoin/BvmLedger';
import { BitcoinNode } from '../../nodes/bitcoin/BitcoinNode';
import { BvmRpcError } from '../../nodes/bitcoin/bvmRpcError';
import { BVM_TEST_ACCOUNT_OUTPUTS } from '../../nodes/bitcoin/writeBvmGenesis';
import { BVM_DEPOSIT_CONFIRMATIONS, BvmDepositWatcher } from './BvmDepositWatcher';
import { BvmSolverWallet } from './BvmSolverWallet';
import { BvmChainHistory } from './BvmChainHistory';
import type { DoubleSpendCapability } from '../DoubleSpendCapability';
import { buildBvmDepositSteps } from './buildBvmDepositSteps';
import { p2wpkhFee, selectCoins, signP2wpkhTransaction } from '../../nodes/bitcoin/bvmTransactions';
import { spendableCoinsOf } from '../../nodes/bitcoin/bvmSpendableCoins';

export interface BvmChainOptions extends Omit<ChainAdapterContext, 'anvilPath' | 'anvilSearchPath'> {
  metadata: ChainMetadata;
  host: string;
  /** Mine a block every this many seconds of the virtual clock (0: only on `generatetoaddress` / `mine`). */
  blockTimeSeconds: number;
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
 * LIMITATIONS: p2wpkh inputs only; blocks only on request (or every `--bvm-block-time` seconds);
 * without `--db` state lives in memory (a restart starts from genesis again).
 */
export class BvmChain implements ChainAdapter {
  readonly vmType = 'bvm' as const;
  /** A new quote for the same user and route as an earlier unpaid request reuses its deposit address (SPEC §2.3 `supersededByRequestId`). */
  readonly regeneratesDepositAddresses = true;
  readonly chainId: number;
  private readonly listeners = new Set<(observation: ChainObservation) => void>();
  private readonly node: BitcoinNode;
  private watcher: BvmDepositWatcher | undefined;
  private wallet: BvmSolverWallet | undefined;
  private readonly native: Currency;
  private readonly stopWaiting = new Set<() => void>();
  /** Reorgs, snapshots and double spends on the node's ledger. */
  private readonly history: BvmChainHistory;

  constructor(private readonly options: BvmChainOptions) {
    this.chainId = options.metadata.id;
    this.native = bvmNativeCurrency(this.chainId);
    const { clock, mnemonic, accountCount, host, blockTimeSeconds } = options;
    this.node = new BitcoinNode({ chainId: this.chainId, clock, mnemonic, accountCount, host, blockTimeSeconds });
    this.history = new BvmChainHistory({ chainId: this.chainId, ledger: () => this.ledger, miner: () => this.keys.miner });
  }

  get doubleSpends(): DoubleSpendCapability {
    return this.history;
  }

  get rpcUrl(): string {
    return this.booted().rpcUrl;
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
    await this.node.start(this.options.ledgerJournal);
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
    this.wallet = new BvmSolverWallet({ chainId: this.chainId, ledger, solver: accounts.solver, store: this.options.solverTransactions, clock: this.options.clock });
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
    return (await this.openDepositAddress(params)).steps;
  }

  /**
   * Every BVM deposit pays into the request's own address (a key the solver derives from the
   * request id), registered and watched from now on; the step's PSBT pays it from the user's coins.
   * A regenerated request (`reuseDepositAddress`) pays the earlier request's address instead.
   */
  async openDepositAddress(params: DepositStepParams): Promise<{ address: string; steps: QuoteStep[] }> {
    if (params.reuseDepositAddress) {
      // a regenerated request: the earlier request's address, handed over when the quote is recorded
      const address = params.reuseDepositAddress;
      return { address, steps: buildBvmDepositSteps({ user: params.user, amount: params.amount, depositAddress: address, ledger: this.ledger }) };
    }
    const address = this.depositAddressFor(params.requestId);
    const store = this.options.depositAddresses;
    // a price (request id 0x00…00) records nothing
    const recorded = !/^0x0{64}$/.test(params.requestId);
    if (recorded && !store.at(this.chainId, address) && !store.forRequest(params.requestId)) {
      store.open({ chainId: this.chainId, address: address as Hex, requestId: params.requestId, createdAt: this.options.clock.now() });
    }
    return { address, steps: buildBvmDepositSteps({ user: params.user, amount: params.amount, depositAddress: address, ledger: this.ledger }) };
  }

  /** The request's deposit address is the solver's own key: the payment into it is the deposit, there is nothing to sweep. */
  async sweepDepositAddress(): Promise<{ txHash: Hex; status: 'success' | 'failure' }> {
    throw new UnsupportedOnChainError(`chain ${this.chainId} (BVM): a deposit address is the solver's own key; there is nothing to sweep`);
  }

  fillGasCost(_currency: Currency, _action?: DestinationAction['kind']): { amount: bigint; currency: Currency } {
    return { amount: TYPICAL_FEE, currency: this.native };
  }

  /** A Bitcoin transaction has no gas: its fee is its size at the fee rate. */
  gasCostOf(_units: bigint): { amount: bigint; currency: Currency } {
    return { amount: TYPICAL_FEE, currency: this.native };
  }

  refundGasCost(currency: Currency): { amount: bigint; currency: Currency } {
    return this.fillGasCost(currency);
  }

  depositGasCost(): bigint {
    return TYPICAL_FEE;
  }

  /** No pools and no wrapped BTC: the solver pays BTC from its own coins whatever the origin asset. */
  liquidity(): ChainLiquidity {
    return { nativeCurrency: this.native, wrappedNative: this.native, pools: [], inventory: [this.native] };
  }

  async readPoolReserves(pool: string): Promise<{ reserve0: bigint; reserve1: bigint }> {
    throw new ChainError(`chain ${this.chainId} (BVM) has no pool ${pool}`);
  }

  /** Builds the payment from the solver's coins now (nothing is signed into the store or sent). */
  async simulateSolverFill(payment: SolverPayment): Promise<FillSimulation> {
    try {
      this.solverWallet().build(payment);
      return { ok: true, gasUnits: 0n };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof SolverBalanceTooLowError) {
        return { ok: false, errorName: 'InsufficientFunds', message, revert: { kind: 'customError', errorName: 'InsufficientFunds', args: [], data: '0x' } };
      }
      return { ok: false, errorName: 'FillNotSupported', message, revert: { kind: 'reasonString', reason: message, data: '0x' } };
    }
  }

  async failedTransactionFacts(txHash: Hex): Promise<FailedTransactionFacts> {
    throw new ChainError(`chain ${this.chainId} (BVM): transaction ${txHash} did not fail (a Bitcoin transaction is valid or never mined)`);
  }

  async balanceOf(owner: string, currency: Currency): Promise<bigint> {
    const script = outputScriptOf(owner);
    if (!currency.isNative || !script) return 0n;
    return this.ledger.coinsOf(script, true).reduce((sum, coin) => sum + coin.value, 0n);
  }

  onObservation(listener: (observation: ChainObservation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async indexTransaction(txHash: string): Promise<void> {
    this.watcher?.index(txHash.replace(/^0x/, '').toLowerCase());
  }

  /** The watcher hears every mempool transaction and block as it happens. */
  async syncNow(): Promise<void> {}

  async sendSolverPayment(kind: 'fill' | 'refund', payment: SolverPayment, options: SolverSendOptions = {}): Promise<SentSolverTransaction> {
    return { txHash: this.solverWallet().send(kind, payment, options), chainId: this.chainId };
  }

  async signSolverPaymentWithoutSending(kind: 'fill' | 'refund', payment: SolverPayment): Promise<SentSolverTransaction> {
    return { txHash: this.solverWallet().sign(kind, payment).txHash, chainId: this.chainId };
  }

  async hasTransaction(txHash: Hex): Promise<boolean> {
    return this.ledger.transaction(txHash) !== undefined;
  }

  /** Waits until the payment is mined (blocks come from `generatetoaddress`, `mine` or the block time). */
  async awaitSolverTransaction(txHash: Hex, kind: 'fill' | 'refund', payment: SolverPayment): Promise<TransactionEntry> {
    const record = await this.minedRecord(txHash);
    const saved = this.options.solverTransactions.find(payment.requestId, kind);
    if (saved) this.options.solverTransactions.setState(saved.id, record ? 'confirmed' : 'failed');
    const delivered = record?.tx.outs.filter((output) => addressOfScript(output.script) === this.normalizeAddress(payment.recipient)).reduce((sum, output) => sum + output.value, 0n) ?? 0n;
    const data = {
      from: this.keys.solver.address as Hex,
      to: payment.recipient as Hex,
      currency: payment.currency.address,
      amount: record ? delivered : payment.amount,
      deliveries: record ? [{ to: payment.recipient as Hex, currency: payment.currency.address, amount: delivered }] : [],
    };
    if (!record) {
      return { txHash, chainId: this.chainId, type: kind, fee: 0n, feeUsdMicros: 0n, block: 0, blockHash: '' as Hex, timestamp: this.options.clock.nowSeconds(), status: 'failure', data };
    }
    return this.entryOf(record, kind, data);
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

  /** Signs the step item's PSBT with the account's key (WIF) as the SDK's Bitcoin adapter has a wallet do, and broadcasts it. */
  async sendUserTransaction(privateKey: string, item: Record<string, unknown>): Promise<UserTransaction> {
    const data = (item.data ?? item) as { psbt?: unknown };
    if (typeof data.psbt !== 'string') throw new ChainError(`chain ${this.chainId} (BVM): a step item's data carries a psbt`);
    const key = userKey(privateKey);
    const psbt = bitcoin.Psbt.fromHex(data.psbt, { network: BVM_NETWORK });
    psbt.signAllInputs(key.keyPair);
    psbt.finalizeAllInputs();
    return this.broadcast(psbt.extractTransaction().toHex());
  }

  async transferFromUser(privateKey: string, to: string, currency: Currency, amount: bigint): Promise<UserTransaction> {
    if (!currency.isNative) throw new ChainError(`chain ${this.chainId} (BVM) has only BTC`);
    const key = userKey(privateKey);
    const script = outputScriptOf(to);
    if (!script) throw new ChainError(`chain ${this.chainId} (BVM): ${to} is not a regtest address`);
    const selected = selectCoins(spendableCoinsOf(this.ledger, key.script), amount);
    if (!selected) throw new ChainError(`chain ${this.chainId} (BVM): ${key.address} cannot pay ${amount} sats plus the fee`);
    const outputs = [{ script, value: amount }, ...(selected.change >= 546n ? [{ script: key.script, value: selected.change }] : [])];
    return this.broadcast(signP2wpkhTransaction(selected.coins.map((coin) => ({ coin, key })), outputs).toHex());
  }

  /** A stable p2wpkh address for `label` (its key hash: the first 20 bytes of a hash of the label). */
  addressForLabel(label: string): string {
    const hash = createHash('sha256').update(`intentsim-bvm-label:${label}`).digest().subarray(0, 20);
    return bitcoin.payments.p2wpkh({ hash, network: BVM_NETWORK }).address!;
  }

  async deployFixtureContract(): Promise<string> {
    throw new UnsupportedOnChainError(`chain ${this.chainId} (BVM) has no contracts`);
  }

  encodeContractCall(_contract: ContractAbiRef): string {
    throw new UnsupportedOnChainError(`chain ${this.chainId} (BVM) has no contract calls to encode`);
  }

  async signContractMessage(): Promise<ContractSignature> {
    throw new UnsupportedOnChainError(`chain ${this.chainId} (BVM) has no contracts to sign for`);
  }

  async setBlockedByIssuer(): Promise<UserTransaction> {
    throw new UnsupportedOnChainError(`chain ${this.chainId} (BVM) has no stablecoin`);
  }

  async mine(blocks = 1): Promise<void> {
    this.ledger.mine(blocks, this.keys.miner.script);
  }

  async isPending(txHash: string): Promise<boolean> {
    return this.ledger.confirmations(txHash) === 0;
  }

  async setCode(): Promise<void> {
    throw new UnsupportedOnChainError(`chain ${this.chainId} (BVM) has no code to replace`);
  }

  /** Transactions wait in the mempool until a block is mined: automine is always off. */
  async setAutomine(enabled: boolean): Promise<void> {
    if (enabled) throw new UnsupportedOnChainError(`chain ${this.chainId} (BVM) mines on generatetoaddress or every --bvm-block-time seconds, never per transaction`);
  }

  /** Mines a block every `seconds` of the virtual clock (0: off), the first `seconds` from now. */
  async setIntervalMining(seconds: number): Promise<void> {
    this.node.setIntervalMining(seconds);
  }

  async snapshot(): Promise<string> {
    return this.history.snapshot();
  }

  async revert(snapshotId: string): Promise<void> {
    return this.history.revert(snapshotId);
  }

  async reorg(depth: number): Promise<void> {
    return this.history.reorg(depth);
  }

  async setNextBlockTimestamp(unixSeconds: number): Promise<void> {
    this.ledger.setNextBlockTimestamp(unixSeconds);
  }

  /** Block times follow the virtual clock, which `advanceSimulationTime` moves right after this. */
  async increaseTime(): Promise<void> {}

  /** The address of a request's deposit key. */
  depositAddressFor(requestId: string): string {
    return depositKeyFor(this.keys, requestId).address;
  }

  private broadcast(hex: string): UserTransaction {
    try {
      return { txHash: this.ledger.submit(hex).txid, status: 'sent' };
    } catch (error) {
      if (error instanceof BvmRpcError) throw new ChainError(`chain ${this.chainId} refused the transaction: ${error.message} (code ${error.code})`, { cause: error });
      throw error;
    }
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
    return {
      txHash: record.txid as Hex,
      chainId: this.chainId,
      type,
      fee: record.fee,
      feeUsdMicros: usdMicrosOf(record.fee, this.native),
      block: block?.height ?? 0,
      blockHash: (block?.hash ?? '') as Hex,
      timestamp: block?.time ?? record.time,
      status: 'success',
      data,
    };
  }

  private solverWallet(): BvmSolverWallet {
    if (!this.wallet) throw new Error(`chain ${this.chainId} is not started`);
    return this.wallet;
  }

  private booted(): { ledger: BvmLedger; rpcUrl: string; accounts: BvmAccounts } {
    return { ledger: this.node.ledger, rpcUrl: this.node.rpcUrl, accounts: this.node.accounts };
  }
}

function userKey(privateKey: string): BvmKey {
  try {
    return bvmKeyFromWif(privateKey);
  } catch (error) {
    throw new ChainError('a BVM account key is a WIF-encoded private key (chains[].accounts[].privateKey)', { cause: error });
  }
}
