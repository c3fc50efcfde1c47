import type { Hex } from 'viem';
import type { ChainAdapter, ChainObservation, SentSolverTransaction, SolverSendOptions } from '../chains/ChainAdapter';
import { SolverBalanceTooLowError } from '../chains/SolverBalanceTooLowError';
import { SolverBroadcastRefusedError } from '../chains/SolverBroadcastRefusedError';
import { actualAppFees } from '../domain/quoteOptions/appFees';
import { refundRecipientOf } from '../domain/fill/depositAddressOutcome';
import type { RequestRecord, TransactionEntry } from '../domain/request/requestRecord';
import type { FailReason, RequestStatus } from '../domain/request/requestStatus';
import { recordRequestFacts, transitionRequest, type RequestFacts, type RequestLifecycle } from '../lifecycle/transitionRequest';
import type { ChainIndexStore } from '../store/ChainIndexStore';
import { DepositAddressSweeper } from './DepositAddressSweeper';
import { decideFill } from './decideFill';
import type { IndexedDeposit } from '../domain/chain/observedDeposit';
import type { SolverPayment } from '../domain/fill/solverPayment';
import { revertedFillReason } from '../domain/fill/fillFailReason';
import type { DecodedRevert } from '../domain/fill/decodedRevert';
import { refundFailReasonBeforeSending } from '../domain/fill/refundFailReason';
import { defaultActionFor, failReasonOfAction, isRelayAction, type SolverRule, type SolverRuleInput } from '../domain/fill/solverRules';
import { depositRefusalReason } from '../domain/fill/depositRefusal';
import { inclusionCheckIntervalMs } from '../domain/fill/fillInclusion';
import type { VirtualClock } from '../clock/VirtualClock';
import type { SolverRuleStore } from './SolverRuleStore';
import { depositHeldBy, firstStatusAt, recordHoldingDeposit, openStrayDepositRecord } from './requestDeposits';
import { settleUnseenFill } from './settleUnseenFill';

/** The destination payment a fill made, as its transaction entry records it. */
function fillPaymentOf(record: RequestRecord, amount: bigint): SolverPayment {
  return { requestId: record.id, currency: record.quote.currencyOut, recipient: record.quote.recipient, amount };
}

/** How a fast-fill call ended (see `Solver.fastFill`). */
export type FastFillOutcome =
  | { kind: 'filled'; status: RequestStatus }
  | { kind: 'not-waiting'; status: RequestStatus | null }
  | { kind: 'rejected'; failReason: FailReason };

/**
 * The older global switch, kept for config files and callers that use it: `hold` is a catch-all
 * `never` rule, `fill` removes it (see `SolverRuleStore` for the rules themselves).
 */
export type SolverPolicy = 'fill' | 'hold';

export interface SolverDeps {
  chains: ReadonlyMap<number, ChainAdapter>;
  lifecycle: RequestLifecycle;
  chainIndex: ChainIndexStore;
  /** What the solver does with each request: rule data, applied in `settlePending`. */
  rules: SolverRuleStore;
  /** Delays run on the simulator's virtual clock. */
  clock: VirtualClock;
  /** Seconds a quote's order stays fillable: a deposit indexed later is refunded (ORDER_EXPIRED). */
  quoteTtlSeconds: number;
  /** Seconds a broadcast fill may stay unseen by its chain, re-broadcast meanwhile, before TRANSACTION_NOT_INCLUDED. */
  fillInclusionWindowSeconds: number;
  log: (message: string, error?: unknown) => void;
}

/**
 * The scripted solver. It reacts to chain facts — deposits indexed, deposits reorged out — and
 * moves each request through SPEC §3 by calling `transitionRequest`: waiting → pending on the
 * deposit, pending → submitted when the fill is broadcast, submitted → success/failure on the
 * fill's receipt, → refund when the deposit cannot be filled. Work on one request is serialised.
 */
export class Solver {
  /** The id of the catch-all `never` rule that stands for the `hold` policy, while it is on. */
  private holdRuleId: string | undefined;
  /** Requests waiting out a `delay` rule, and those whose delay has passed. */
  private readonly delays = new Map<string, 'waiting' | 'released'>();
  private active = false;
  private readonly buffered: Array<{ chain: ChainAdapter; observation: ChainObservation }> = [];
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Requests whose work waits for the receipt of one of the solver's transactions, by request id. */
  private readonly awaitingReceipt = new Map<string, { chainId: number; txHash: Hex }>();
  private readonly unsubscribers: Array<() => void> = [];
  private readonly depositAddresses: DepositAddressSweeper;

  constructor(private readonly deps: SolverDeps) {
    this.depositAddresses = new DepositAddressSweeper(deps);
  }

  /** Listens to every chain; observations wait until `activate()` (all chains started). */
  attach(): void {
    for (const chain of this.deps.chains.values()) {
      this.unsubscribers.push(chain.onObservation((observation) => this.observe(chain, observation)));
    }
  }

  /** Starts acting: resumes requests left mid-way by a previous run, then buffered observations. */
  async activate(): Promise<void> {
    this.active = true;
    for (const record of this.deps.lifecycle.requests.listByStatus('submitted')) this.schedule(record.id, () => this.confirmSubmitted(record.id));
    for (const record of this.deps.lifecycle.requests.listByStatus('pending')) this.schedule(record.id, () => this.settlePending(record.id));
    for (const { chain, observation } of this.buffered.splice(0)) this.observe(chain, observation);
    await this.idle();
  }

  detach(): void {
    this.active = false;
    this.unsubscribers.splice(0).forEach((unsubscribe) => unsubscribe());
  }

  getPolicy(): SolverPolicy {
    return this.holdRuleId !== undefined && this.deps.rules.list().some((rule) => rule.id === this.holdRuleId) ? 'hold' : 'fill';
  }

  /** `hold`: a catch-all `never` rule; `fill`: removes it and settles every request held in `pending`. */
  setPolicy(policy: SolverPolicy): void {
    if (policy === this.getPolicy()) return;
    if (policy === 'hold') {
      this.holdRuleId = this.deps.rules.add({ action: { kind: 'never' } }).id;
      return;
    }
    if (this.holdRuleId !== undefined) this.deps.rules.remove(this.holdRuleId);
    this.holdRuleId = undefined;
    this.rulesChanged();
  }

  /** Adds a rule (validated); requests held in `pending` are looked at again. */
  addRule(input: SolverRuleInput): SolverRule {
    const rule = this.deps.rules.add(input);
    this.rulesChanged();
    return rule;
  }

  /**
   * The relay fault the rules script for a request the gasless relayer is about to submit
   * (`refuseRelay` / `dropRelay`); undefined when none matches. Other rule kinds are left alone.
   */
  relayFaultFor(record: RequestRecord): 'refuse' | 'drop' | undefined {
    const subject = { id: record.id, originChainId: record.quote.originChainId, destinationChainId: record.quote.destinationChainId, requestType: record.quote.requestType };
    const action = this.deps.rules.decide(subject, (candidate) => !isRelayAction(candidate));
    if (action.kind === 'refuseRelay') return 'refuse';
    if (action.kind === 'dropRelay') return 'drop';
    return undefined;
  }

  listRules(): SolverRule[] {
    return this.deps.rules.list();
  }

  /** Removes one rule (false when unknown) and looks at held requests again. */
  removeRule(id: string): boolean {
    const removed = this.deps.rules.remove(id);
    if (removed) this.rulesChanged();
    return removed;
  }

  clearRules(): void {
    this.deps.rules.clear();
    this.holdRuleId = undefined;
    this.rulesChanged();
  }

  /** Rules were added or removed: requests held in `pending` are looked at again. */
  private rulesChanged(): void {
    if (!this.active) return;
    for (const record of this.deps.lifecycle.requests.listByStatus('pending')) this.schedule(record.id, () => this.settlePending(record.id));
  }

  /** Forgets delays in progress and the hold switch (the control plane's reset; rules are reset by their store). */
  reset(): void {
    this.delays.clear();
    this.holdRuleId = undefined;
    this.deps.rules.reset();
  }

  /**
   * Resolves when no request is being worked on. With `unlessHeld`, a request whose work waits
   * for the receipt of a transaction `unlessHeld` says will not be mined until told (its chain's
   * automine is off and it waits in the pool) counts as idle too: a fill held in the mempool.
   */
  async idle(options: { unlessHeld?: (tx: { chainId: number; txHash: Hex }) => Promise<boolean> } = {}): Promise<void> {
    const { unlessHeld } = options;
    while (this.inFlight.size > 0) {
      if (!unlessHeld) {
        await Promise.allSettled([...this.inFlight.values()]);
        continue;
      }
      const keys = [...this.inFlight.keys()];
      const waiting = keys.map((key) => this.awaitingReceipt.get(key));
      if (waiting.every((tx) => tx !== undefined)) {
        const held = await Promise.all(waiting.map((tx) => unlessHeld(tx!)));
        if (held.every(Boolean) && keys.every((key, index) => this.awaitingReceipt.get(key) === waiting[index])) return;
      }
      await Promise.race([Promise.allSettled([...this.inFlight.values()]), new Promise((resolve) => setTimeout(resolve, 5))]);
    }
  }

  /** Waits for the receipt of a solver transaction, marked as such for `idle`. */
  private async awaitReceipt(chain: ChainAdapter, requestId: string, txHash: Hex, kind: 'fill' | 'refund', payment: SolverPayment): Promise<TransactionEntry> {
    const key = requestId.toLowerCase();
    this.awaitingReceipt.set(key, { chainId: chain.chainId, txHash });
    try {
      return await chain.awaitSolverTransaction(txHash, kind, payment);
    } finally {
      this.awaitingReceipt.delete(key);
    }
  }

  private observe(chain: ChainAdapter, observation: ChainObservation): void {
    if (!this.active) {
      this.buffered.push({ chain, observation });
      return;
    }
    if (observation.kind === 'depositAddressPaid') {
      this.schedule(observation.requestId, () => this.depositAddresses.onPayment(chain, observation.requestId, observation.payment));
      return;
    }
    const requestId = observation.deposit.requestId.toLowerCase();
    if (observation.kind === 'deposit') this.schedule(requestId, () => this.onDeposit(chain, observation.deposit));
    else if (observation.kind === 'depositInMempool') this.schedule(requestId, async () => this.onDepositInMempool(chain, observation.deposit));
    else this.schedule(requestId, () => this.onDepositReorged(chain, observation.deposit, observation.detectedAt));
  }

  private schedule(requestId: string, work: () => Promise<void>): void {
    const key = requestId.toLowerCase();
    const previous = this.inFlight.get(key) ?? Promise.resolve();
    const next = previous
      .then(work)
      .catch((error: unknown) => this.deps.log(`solver: request ${key} failed to progress`, error))
      .finally(() => {
        if (this.inFlight.get(key) === next) this.inFlight.delete(key);
      });
    this.inFlight.set(key, next);
  }

  /**
   * A deposit indexed on `chain`. The first deposit naming a request still `waiting` is its
   * deposit: → pending, then `settlePending` fills or refunds it. Any other — a second deposit for
   * a request that has one, or one naming no known request — gets a record of its own
   * (`openStrayDepositRecord`), which is refunded the same way.
   */
  private async onDeposit(chain: ChainAdapter, deposit: IndexedDeposit): Promise<void> {
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
    transitionRequest(this.deps.lifecycle, {
      requestId: record.id,
      to: 'pending',
      update: (r) => {
        r.depositor = deposit.depositor;
        r.inTxs.push(chain.indexedDepositEntry(deposit));
      },
    });
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
  private onDepositInMempool(chain: ChainAdapter, deposit: IndexedDeposit): void {
    const { requests } = this.deps.lifecycle;
    const named = requests.get(deposit.requestId);
    if (!named || (named.status !== 'waiting' && named.status !== 'depositing') || recordHoldingDeposit(requests, named, deposit)) return;
    transitionRequest(this.deps.lifecycle, {
      requestId: named.id,
      to: 'pending',
      update: (r) => {
        r.depositor = deposit.depositor;
        r.inTxs.push(chain.indexedDepositEntry(deposit));
        if (r.depositAddress && r.depositAddress.depositTxHash === null) r.depositAddress = { ...r.depositAddress, depositor: deposit.depositor, depositTxHash: deposit.txHash };
      },
    });
  }

  /**
   * SPEC §1.6 fast fill (`POST /fast-fill`): fills a quoted request before its deposit is
   * indexed, as if `assumedInput` had been deposited (the caller vouches for the deposit);
   * waiting → pending → submitted → success, `triggeredByFastFill` and feature `fast_fill` set.
   * Resolves once the fill is mined, or with why it was not made.
   */
  fastFill(requestId: string, assumedInput: bigint): Promise<FastFillOutcome> {
    return new Promise((resolve, reject) => {
      this.schedule(requestId, async () => {
        try {
          resolve(await this.runFastFill(requestId, assumedInput));
        } catch (error) {
          reject(error);
          throw error;
        }
      });
    });
  }

  private async runFastFill(requestId: string, assumedInput: bigint): Promise<FastFillOutcome> {
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
  private async settlePending(requestId: string): Promise<void> {
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
    const subject = { id: record.id, originChainId: record.quote.originChainId, destinationChainId: record.quote.destinationChainId, requestType: record.quote.requestType };
    // scripted rules first; unmatched, the request's own default (the `debug-force-refund` referrer refunds)
    const action = this.deps.rules.decide(
      subject,
      (candidate) => isRelayAction(candidate) || (candidate.kind === 'delay' && this.delays.get(key) === 'released'),
      defaultActionFor(record.quote.referrer),
    );
    switch (action.kind) {
      case 'never':
        return;
      case 'delay':
        if (this.delays.get(key) === 'waiting') return;
        this.delays.set(key, 'waiting');
        this.deps.clock.setTimeout(() => {
          this.delays.set(key, 'released');
          if (this.active) this.schedule(key, () => this.settlePending(key));
        }, action.seconds * 1000);
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
      await this.refund(record, deposit, decision.failReason, decision.revert);
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
    const signed = await this.chainFor(record.quote.destinationChainId).signSolverPaymentWithoutSending('fill', payment, { feeBumps });
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
      sent = await this.chainFor(record.quote.destinationChainId).sendSolverPayment('fill', payment, options);
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
    await this.confirmSubmitted(record.id);
  }

  /** Looks again, a quarter of the inclusion window later, at a fill its chain has not seen. */
  private watchInclusion(requestId: string): void {
    this.deps.clock.setTimeout(() => {
      if (this.active) this.schedule(requestId, () => this.checkInclusion(requestId));
    }, inclusionCheckIntervalMs(this.deps.fillInclusionWindowSeconds));
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

  /** Waits for the broadcast fill's receipt and settles the request on it. */
  private async confirmSubmitted(requestId: string): Promise<void> {
    const record = this.deps.lifecycle.requests.get(requestId);
    if (!record || record.status !== 'submitted') return;
    const submitted = record.submittedTxs.find((tx) => tx.type === 'fill');
    if (!submitted || record.fillAmount === null) return;
    const destination = this.chainFor(record.quote.destinationChainId);
    if (!(await destination.hasTransaction(submitted.txHash))) {
      // broadcast, but the chain does not have it (dropped, or lost with a node's pool)
      this.watchInclusion(record.id);
      return;
    }
    const payment = fillPaymentOf(record, record.fillAmount);
    const entry = await this.awaitReceipt(destination, record.id, submitted.txHash, 'fill', payment);
    if (entry.status === 'success') {
      const excessRefunds = await this.depositAddresses.refundExcess(record);
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
    const failed = await destination.failedTransactionFacts(entry.txHash).catch((error: unknown) => {
      this.deps.log(`solver: could not read why fill ${entry.txHash} reverted`, error);
      return undefined;
    });
    const failReason = revertedFillReason(record, failed?.revert);
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
        if (failed) r.failedRevert = failed.revert;
      },
    });
    // the reverted fill moved nothing: the deposit is still in the depository, so pay it back
    const deposit = depositHeldBy(this.deps.chainIndex, record);
    if (deposit) await this.refund(record, deposit, failReason);
  }

  /**
   * Pays the deposit back to the depositor (or `refundTo`) on the origin chain and records the
   * refund: `refund` when it is mined. A deposit worth no more than the refund's gas is not sent
   * back (refundFailReason AMOUNT_TOO_LOW_TO_REFUND, SPEC §7.4); a refund that reverts is recorded
   * in `outTxs` with status failure. Either way the request ends in `failure`.
   */
  private async refund(record: RequestRecord, deposit: IndexedDeposit, failReason: FailReason, revert?: DecodedRevert): Promise<void> {
    // the reason, and the simulated fill's decoded revert when that is why (SPEC §2.4 details)
    const recordReason = (r: RequestFacts) => {
      r.failReason = failReason;
      if (revert) r.failedRevert = revert;
    };
    const origin = this.chainFor(deposit.chainId);
    const currency = origin.findCurrency(deposit.currency);
    if (!currency) {
      this.deps.log(`solver: cannot refund ${record.id}: unknown currency ${deposit.currency}`);
      return;
    }
    const refundFailReason = refundFailReasonBeforeSending({ amount: deposit.amount, currency }, origin.refundGasCost(currency));
    if (refundFailReason) {
      this.settleAsFailure(record.id, (r) => {
        recordReason(r);
        r.refundFailReason = refundFailReason;
      });
      return;
    }
    const payment: SolverPayment = { requestId: record.id, currency, recipient: refundRecipientOf(record, deposit.depositor), amount: deposit.amount };
    const sent = await origin.sendSolverPayment('refund', payment);
    const entry = await this.awaitReceipt(origin, record.id, sent.txHash, 'refund', payment);
    if (entry.status === 'success') {
      transitionRequest(this.deps.lifecycle, {
        requestId: record.id,
        to: 'refund',
        update: (r) => {
          recordReason(r);
          r.outTxs.push(entry);
        },
      });
      return;
    }
    this.deps.log(`solver: refund ${entry.txHash} of ${record.id} reverted on chain ${entry.chainId}; the request stays failed`);
    this.settleAsFailure(record.id, (r) => {
      recordReason(r);
      r.outTxs.push(entry);
    });
  }

  /** Ends a request in `failure` with these facts: a transition, or facts only when it has already failed. */
  private settleAsFailure(requestId: string, update: (facts: RequestFacts) => void): void {
    const current = this.deps.lifecycle.requests.get(requestId);
    if (current?.status === 'failure') recordRequestFacts(this.deps.lifecycle, requestId, update);
    else transitionRequest(this.deps.lifecycle, { requestId, to: 'failure', update });
  }

  private async onDepositReorged(chain: ChainAdapter, deposit: IndexedDeposit, detectedAt: number): Promise<void> {
    const { requests } = this.deps.lifecycle;
    const record = recordHoldingDeposit(requests, requests.get(deposit.requestId), deposit);
    if (!record) return;
    const markReorged = (r: RequestFacts) => {
      r.inTxs = r.inTxs.map((tx) =>
        tx.txHash === deposit.txHash
          ? {
              ...tx,
              status: 'failure' as const,
              metadata: {
                reorg: {
                  detectedAt,
                  source: `chain-${chain.chainId}-block-hash-watcher`,
                  reason: 'deposit transaction is no longer in the canonical chain',
                  blockNumber: deposit.blockNumber,
                  blockHash: deposit.blockHash as Hex,
                  failReason: 'DEPOSIT_REORGED' as const,
                  ...(r.outTxs.some((o) => o.type === 'fill') ? { action: 'fill' as const } : {}),
                },
              },
            }
          : tx,
      );
    };
    if (record.status === 'pending' || record.status === 'submitted' || record.status === 'success') {
      transitionRequest(this.deps.lifecycle, {
        requestId: record.id,
        to: 'failure',
        update: (r) => {
          markReorged(r);
          r.failReason = 'DEPOSIT_REORGED';
        },
      });
    } else {
      recordRequestFacts(this.deps.lifecycle, record.id, markReorged);
    }
  }

  private chainFor(chainId: number): ChainAdapter {
    const chain = this.deps.chains.get(chainId);
    if (!chain) throw new Error(`no chain ${chainId}`);
    return chain;
  }
}
