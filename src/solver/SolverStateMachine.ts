import type { Hex } from 'viem';
import type { ChainAdapter } from '../chains/ChainAdapter';
import type { SentSolverTransaction, SolverSendOptions } from '../chains/SolverWallet';
import { SolverBalanceTooLowError } from '../chains/SolverBalanceTooLowError';
import { SolverBroadcastRefusedError } from '../chains/SolverBroadcastRefusedError';
import { actualAppFees } from '../domain/quoteOptions/appFees';
import type { RequestRecord, TransactionEntry } from '../domain/request/requestRecord';
import type { FailReason, RequestStatus } from '../domain/request/requestStatus';
import { recordRequestFacts, transitionRequest, type RequestFacts, type RequestLifecycle } from '../lifecycle/transitionRequest';
import type { ChainIndexStore } from '../store/ChainIndexStore';
import type { DepositAddressSweeper } from './DepositAddressSweeper';
import { decideFill } from './decideFill';
import type { IndexedDeposit } from '../domain/chain/observedDeposit';
import type { SolverPayment } from '../domain/fill/solverPayment';
import { revertedFillReason } from '../domain/fill/fillFailReason';
import type { ChainFailure } from '../domain/fill/chainFailure';
import { failReasonOfAction } from '../domain/fill/solverRules';
import { depositRefusalReason } from '../domain/fill/depositRefusal';
import { inclusionCheckIntervalMs } from '../domain/fill/fillInclusion';
import type { VirtualClock } from '../clock/VirtualClock';
import type { SolverRuleStore } from './SolverRuleStore';
import type { SolverWorkQueue } from './SolverWorkQueue';
import { depositHeldBy, firstStatusAt, recordHoldingDeposit, openStrayDepositRecord } from './requestDeposits';
import { settleUnseenFill } from './settleUnseenFill';
import { markDepositReorged } from './markDepositReorged';
import { refundDeposit, settleAsFailure, type RefundDepositDeps } from './refundDeposit';

/** The destination payment a fill made, as its transaction entry records it. */
function fillPaymentOf(record: RequestRecord, amount: bigint): SolverPayment {
  return { requestId: record.id, currency: record.quote.currencyOut, recipient: record.quote.recipient, amount };
}

/** How a fast-fill call ended (see `Solver.fastFill`). */
export type FastFillOutcome =
  | { kind: 'filled'; status: RequestStatus }
  | { kind: 'not-waiting'; status: RequestStatus | null }
  | { kind: 'rejected'; failReason: FailReason };

export interface SolverStateMachineDeps {
  chains: ReadonlyMap<number, ChainAdapter>;
  lifecycle: RequestLifecycle;
  chainIndex: ChainIndexStore;
  /** What the solver does with each request: rule data, applied in `settlePending`. */
  rules: SolverRuleStore;
  /** Where the machine schedules its later steps (delays, inclusion checks) on the virtual clock. */
  queue: SolverWorkQueue;
  depositAddresses: DepositAddressSweeper;
  clock: VirtualClock;
  /** Seconds a quote's order stays fillable: a deposit indexed later is refunded (ORDER_EXPIRED). */
  quoteTtlSeconds: number;
  /** Seconds a broadcast fill may stay unseen by its chain, re-broadcast meanwhile, before TRANSACTION_NOT_INCLUDED. */
  fillInclusionWindowSeconds: number;
  log: (message: string, error?: unknown) => void;
}

/**
 * What happens to a request on each chain fact (SPEC §3), through `transitionRequest`: waiting →
 * pending on the deposit, pending → submitted when the fill is broadcast, submitted →
 * success/failure on the fill's receipt, → refund when the deposit cannot be filled. Each step
 * runs as the work queue's work on its request; the queue serialises them.
 */
export class SolverStateMachine {
  /** Requests waiting out a `delay` rule, and those whose delay has passed. */
  private readonly delays = new Map<string, 'waiting' | 'released'>();
  private readonly refunds: RefundDepositDeps;

  constructor(private readonly deps: SolverStateMachineDeps) {
    this.refunds = {
      lifecycle: deps.lifecycle,
      chainFor: (chainId) => this.chainFor(chainId),
      awaitReceipt: (chain, requestId, txHash, kind, payment) => this.awaitReceipt(chain, requestId, txHash, kind, payment),
      log: deps.log,
    };
  }

  /** Forgets delays in progress (the control plane's reset). */
  forgetDelays(): void {
    this.delays.clear();
  }

  /** Waits for the receipt of a solver transaction, marked as such for the queue's `idle`. */
  private awaitReceipt(chain: ChainAdapter, requestId: string, txHash: Hex, kind: 'fill' | 'refund', payment: SolverPayment): Promise<TransactionEntry> {
    return this.deps.queue.whileAwaitingReceipt(requestId, { chainId: chain.chainId, txHash, kind }, () => chain.solverWallet.awaitPayment(txHash, kind, payment));
  }

  /**
   * A deposit indexed on `chain`. The first deposit naming a request still `waiting` is its
   * deposit: → pending, then `settlePending` fills or refunds it. Any other — a second deposit for
   * a request that has one, or one naming no known request — gets a record of its own
   * (`openStrayDepositRecord`), which is refunded the same way.
   */
  async onDeposit(chain: ChainAdapter, deposit: IndexedDeposit): Promise<void> {
    const { requests } = this.deps.lifecycle;
    const named = requests.get(deposit.requestId);
    const holder = recordHoldingDeposit(requests, named, deposit);
    if (holder) {
      // the same deposit seen again (re-included after a reorg): refresh its block facts only
      const entry = await chain.depositTransactionEntry(deposit, 'success');
      recordRequestFacts(this.deps.lifecycle, holder.id, (r) => {
        r.inTxs = r.inTxs.map((tx) => (tx.txHash === deposit.txHash ? entry : tx));
      });
      // a deposit first seen in the mempool (`onDepositInMempool`) is filled once it is indexed
      if (holder.status === 'pending') await this.settlePending(holder.id);
      return;
    }
    if (named?.triggeredByFastFill && named.inTxs.length === 0) {
      // fast-filled before its deposit (SPEC §1.6): the deposit is recorded, never filled again
      const entry = await chain.depositTransactionEntry(deposit, 'success');
      recordRequestFacts(this.deps.lifecycle, named.id, (r) => {
        r.depositor = deposit.depositor;
        r.inTxs.push(entry);
      });
      return;
    }
    const takesIt = named !== undefined && (named.status === 'waiting' || named.status === 'depositing');
    const record = takesIt ? named : openStrayDepositRecord(this.deps.lifecycle, chain, named, deposit, this.deps.clock.now());
    if (!record) {
      this.deps.log(`solver: deposit ${deposit.txHash} on chain ${deposit.chainId} names unknown request ${deposit.requestId} in a currency the chain does not know; left in the depository`);
      return;
    }
    this.pendingOnDeposit(chain, record.id, deposit);
    // the deposit's fee needs its receipt: fetched beside the fill, not before it
    const depositFacts = chain.depositTransactionEntry(deposit, 'success').then((entry) =>
      recordRequestFacts(this.deps.lifecycle, record.id, (r) => {
        r.inTxs = r.inTxs.map((tx) => (tx.txHash === entry.txHash ? { ...entry, ...(tx.metadata ? { metadata: tx.metadata, status: tx.status } : {}) } : tx));
      }),
    );
    await Promise.all([this.settlePending(record.id), depositFacts]);
  }

  /**
   * SPEC §3: a deposit seen in the mempool of a chain whose deposits count from there (BVM). The
   * request it names goes `pending` with the deposit in `inTxs` (and its deposit address's
   * depositor and transaction); nothing is filled until the deposit is indexed (`onDeposit`). A
   * deposit no waiting request can take is left to `onDeposit` (a stray, refunded once indexed).
   */
  onDepositInMempool(chain: ChainAdapter, deposit: IndexedDeposit): void {
    const { requests } = this.deps.lifecycle;
    const named = requests.get(deposit.requestId);
    if (!named || (named.status !== 'waiting' && named.status !== 'depositing') || recordHoldingDeposit(requests, named, deposit)) return;
    this.pendingOnDeposit(chain, named.id, deposit, (r) => {
      if (r.depositAddress && r.depositAddress.depositTxHash === null) r.depositAddress = { ...r.depositAddress, depositor: deposit.depositor, depositTxHash: deposit.txHash };
    });
  }

  /** The request goes `pending` on `deposit`: its depositor, and the deposit's entry as the watcher indexed it (no RPC). */
  private pendingOnDeposit(chain: ChainAdapter, requestId: string, deposit: IndexedDeposit, more?: (r: RequestFacts) => void): void {
    transitionRequest(this.deps.lifecycle, {
      requestId,
      to: 'pending',
      update: (r) => {
        r.depositor = deposit.depositor;
        r.inTxs.push(chain.indexedDepositEntry(deposit));
        more?.(r);
      },
    });
  }

  /** SPEC §1.6 fast fill, run as the request's work (see `Solver.fastFill`). */
  async runFastFill(requestId: string, assumedInput: bigint): Promise<FastFillOutcome> {
    const record = this.deps.lifecycle.requests.get(requestId);
    if (!record || record.status !== 'waiting') return { kind: 'not-waiting', status: record?.status ?? null };
    const decision = await decideFill(record, assumedInput, this.chainFor(record.quote.destinationChainId));
    if (decision.kind === 'refund') return { kind: 'rejected', failReason: decision.failReason };
    const pending = transitionRequest(this.deps.lifecycle, {
      requestId: record.id,
      to: 'pending',
      update: (r) => {
        r.triggeredByFastFill = true;
        if (!r.quote.features.includes('fast_fill')) r.quote.features.push('fast_fill');
      },
    });
    await this.fill(pending, decision.payment);
    return { kind: 'filled', status: this.deps.lifecycle.requests.get(requestId)?.status ?? 'submitted' };
  }

  /**
   * A request whose deposit is indexed: a deposit it cannot take is refunded at once
   * (`depositRefusalReason`); otherwise the one hook where the solver's rules apply (fill, delay,
   * never, fail, refund, drop or refuse the broadcast, drain), then fill or refund it.
   */
  async settlePending(requestId: string): Promise<void> {
    const { requests } = this.deps.lifecycle;
    const record = requests.get(requestId);
    if (!record || record.status !== 'pending') return;
    const deposit = depositHeldBy(this.deps.chainIndex, record);
    if (!deposit) return;
    const refusal = depositRefusalReason({
      record,
      deposit,
      namedRequestKnown: requests.get(deposit.requestId) !== undefined,
      indexedAtMs: firstStatusAt(requests, record.id, 'pending') ?? this.deps.clock.now(),
      quoteTtlSeconds: this.deps.quoteTtlSeconds,
    });
    if (refusal) {
      await this.refund(record, deposit, refusal);
      return;
    }

    const key = record.id.toLowerCase();
    const action = this.deps.rules.pendingActionFor(record, this.delays.get(key) === 'released');
    switch (action.kind) {
      case 'never':
        return;
      case 'delay':
        if (this.delays.get(key) === 'waiting') return;
        this.delays.set(key, 'waiting');
        this.deps.queue.scheduleAfter(action.seconds * 1000, key, () => this.settlePending(key), () => this.delays.set(key, 'released'));
        return;
      case 'fail': {
        const { failReason, refundFailReason } = action;
        this.settleAsFailure(record.id, (r) => {
          r.failReason = failReason;
          if (refundFailReason) r.refundFailReason = refundFailReason;
        });
        if (!refundFailReason) await this.refund(record, deposit, failReason);
        return;
      }
      case 'refund':
      case 'drain':
        await this.refund(record, deposit, failReasonOfAction(action));
        return;
      case 'fill':
      case 'dropBroadcast':
      case 'refuseBroadcast':
      case 'refuseRelay': // relay actions are skipped above: they apply at the gasless relayer
      case 'dropRelay':
        break;
    }
    this.delays.delete(key);

    const decision = await decideFill(record, deposit.amount, this.chainFor(record.quote.destinationChainId));
    if (decision.kind === 'refund') {
      await this.refund(record, deposit, decision.failReason, decision.failure);
      return;
    }
    // a fill sent again after its chain never saw the last one pays higher fees
    const feeBumps = requests.eventsFor(record.id).filter((event) => event.toStatus === 'submitted').length;
    if (action.kind === 'dropBroadcast') {
      await this.fillWithoutSending(record, decision.payment, feeBumps);
      return;
    }
    await this.fill(record, decision.payment, { feeBumps, refusedByNode: action.kind === 'refuseBroadcast' });
  }

  /** The fault "broadcast but dropped": `submitted` with a signed fill the chain never sees. */
  private async fillWithoutSending(record: RequestRecord, payment: SolverPayment, feeBumps: number): Promise<void> {
    const signed = await this.chainFor(record.quote.destinationChainId).solverWallet.sendPayment('fill', payment, { feeBumps, withoutSending: true });
    this.markSubmitted(record.id, payment, signed);
    this.watchInclusion(record.id);
  }

  /**
   * Sends the fill and settles on its receipt. A node that refuses the send (no transaction exists)
   * fails the request with TRANSACTION_SUBMISSION_FAILED (SPEC §7.2) and refunds the deposit.
   */
  private async fill(record: RequestRecord, payment: SolverPayment, options: SolverSendOptions = {}): Promise<void> {
    let sent: SentSolverTransaction;
    try {
      sent = await this.chainFor(record.quote.destinationChainId).solverWallet.sendPayment('fill', payment, options);
    } catch (error) {
      if (error instanceof SolverBalanceTooLowError) {
        this.deps.log(`solver: the fill of ${record.id} could not be built: ${error.message}`);
        this.settleAsFailure(record.id, (r) => void (r.failReason = 'SOLVER_BALANCE_TOO_LOW'));
        await this.refundHeldDeposit(record.id, 'SOLVER_BALANCE_TOO_LOW');
        return;
      }
      if (!(error instanceof SolverBroadcastRefusedError)) throw error;
      this.deps.log(`solver: the fill of ${record.id} could not be broadcast: ${error.reason}`);
      this.settleAsFailure(record.id, (r) => void (r.failReason = 'TRANSACTION_SUBMISSION_FAILED'));
      await this.refundHeldDeposit(record.id, 'TRANSACTION_SUBMISSION_FAILED');
      return;
    }
    this.markSubmitted(record.id, payment, sent);
    await this.confirmSubmitted(record.id, { takenByNode: sent.takenByNode === true });
  }

  /** Looks again, a quarter of the inclusion window later, at a fill its chain has not seen. */
  private watchInclusion(requestId: string): void {
    this.deps.queue.scheduleAfter(inclusionCheckIntervalMs(this.deps.fillInclusionWindowSeconds), requestId, () => this.checkInclusion(requestId));
  }

  /** SPEC §7.2: a fill its chain has not seen is sent again within the inclusion window, else TRANSACTION_NOT_INCLUDED. */
  private async checkInclusion(requestId: string): Promise<void> {
    const outcome = await settleUnseenFill(this.deps, requestId);
    if (outcome === 'seen') await this.confirmSubmitted(requestId);
    else if (outcome === 'rebroadcast') await this.settlePending(requestId);
    else if (outcome === 'not-included') {
      this.deps.log(`solver: the fill of ${requestId} was not included within ${this.deps.fillInclusionWindowSeconds} s`);
      await this.refundHeldDeposit(requestId, 'TRANSACTION_NOT_INCLUDED');
    }
  }

  /** Refunds the deposit a failed request holds, if it holds one (a fast fill may not). */
  private async refundHeldDeposit(requestId: string, failReason: FailReason): Promise<void> {
    const record = this.deps.lifecycle.requests.get(requestId);
    const deposit = record ? depositHeldBy(this.deps.chainIndex, record) : undefined;
    if (record && deposit) await this.refund(record, deposit, failReason);
  }

  /** pending → submitted with the fill's amount and transaction. */
  private markSubmitted(requestId: string, payment: SolverPayment, fill: SentSolverTransaction): void {
    transitionRequest(this.deps.lifecycle, {
      requestId,
      to: 'submitted',
      update: (r) => {
        r.fillAmount = payment.amount;
        r.submittedTxs.push({ txHash: fill.txHash, chainId: fill.chainId, type: 'fill' });
      },
    });
  }

  /**
   * Waits for the broadcast fill's receipt and settles the request on it. `takenByNode`: the fill
   * was just sent and its node took it, so its receipt is waited for without asking first.
   */
  async confirmSubmitted(requestId: string, options: { takenByNode?: boolean } = {}): Promise<void> {
    const record = this.deps.lifecycle.requests.get(requestId);
    if (!record || record.status !== 'submitted') return;
    const submitted = record.submittedTxs.find((tx) => tx.type === 'fill');
    if (!submitted || record.fillAmount === null) return;
    const destination = this.chainFor(record.quote.destinationChainId);
    if (!options.takenByNode && (await destination.solverWallet.transactionStatus(submitted.txHash)) !== 'seen') {
      // broadcast, but the chain does not have it (dropped, or lost with a node's pool)
      this.watchInclusion(record.id);
      return;
    }
    const payment = fillPaymentOf(record, record.fillAmount);
    const entry = await this.awaitReceipt(destination, record.id, submitted.txHash, 'fill', payment);
    if (entry.status === 'success') {
      const excessRefunds = await this.deps.depositAddresses.refundExcess(record, (chain, txHash, refund) => this.awaitReceipt(chain, record.id, txHash, 'refund', refund));
      transitionRequest(this.deps.lifecycle, {
        requestId: record.id,
        to: 'success',
        update: (r) => {
          r.outTxs.push(entry, ...excessRefunds);
          if (r.appFees) r.appFees.actual = actualAppFees(r.appFees.quoted, r.quote.amounts.amountOut, r.fillAmount ?? r.quote.amounts.amountOut);
          r.submittedTxs = r.submittedTxs.filter((tx) => tx.txHash !== entry.txHash);
        },
      });
      return;
    }
    // why it reverted, from the chain: a pool moved after the solver's check gives TOO_LITTLE_RECEIVED
    const failed = await destination.solverWallet.failedTransactionFacts?.(entry.txHash).catch((error: unknown) => {
      this.deps.log(`solver: could not read why fill ${entry.txHash} reverted`, error);
      return undefined;
    });
    const failReason = revertedFillReason(record, failed?.failure);
    transitionRequest(this.deps.lifecycle, {
      requestId: record.id,
      to: 'failure',
      update: (r) => {
        r.outTxs.push(entry);
        r.submittedTxs = r.submittedTxs.filter((tx) => tx.txHash !== entry.txHash);
        r.failReason = failReason;
        r.failedTxHash = entry.txHash;
        r.failedTxBlockNumber = entry.block;
        r.failedCallData = failed?.callData ?? null;
        if (failed) r.failedRevert = failed.failure.details;
      },
    });
    // the reverted fill moved nothing: the deposit is still in the depository, so pay it back
    const deposit = depositHeldBy(this.deps.chainIndex, record);
    if (deposit) await this.refund(record, deposit, failReason);
  }

  /** A deposit reorged out of its chain (see `markDepositReorged`). */
  onDepositReorged(chain: ChainAdapter, deposit: IndexedDeposit, detectedAt: number, conflictingTxHash?: string): void {
    markDepositReorged(this.deps.lifecycle, chain, deposit, detectedAt, conflictingTxHash);
  }

  private refund(record: RequestRecord, deposit: IndexedDeposit, failReason: FailReason, failure?: ChainFailure): Promise<void> {
    return refundDeposit(this.refunds, record, deposit, failReason, failure);
  }

  private settleAsFailure(requestId: string, update: (facts: RequestFacts) => void): void {
    settleAsFailure(this.deps.lifecycle, requestId, update);
  }

  private chainFor(chainId: number): ChainAdapter {
    const chain = this.deps.chains.get(chainId);
    if (!chain) throw new Error(`no chain ${chainId}`);
    return chain;
  }
}
