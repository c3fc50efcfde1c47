import type { ChainAdapter, ChainObservation } from '../chains/ChainAdapter';
import type { RequestRecord } from '../domain/request/requestRecord';
import type { SolverRule, SolverRuleInput } from '../domain/fill/solverRules';
import { DepositAddressSweeper } from './DepositAddressSweeper';
import type { SolverPolicy, SolverRuleState } from './SolverRuleStore';
import { SolverStateMachine, type FastFillOutcome, type SolverStateMachineDeps } from './SolverStateMachine';
import { SolverWorkQueue, type AwaitedSolverTransaction } from './SolverWorkQueue';

export type { FastFillOutcome } from './SolverStateMachine';
export type { SolverPolicy } from './SolverRuleStore';

export type SolverDeps = Omit<SolverStateMachineDeps, 'queue' | 'depositAddresses'>;

/**
 * The scripted solver, as the root, the routes and `sim.control.solver` see it. It wires three
 * parts: the chains' observations go to the state machine (`SolverStateMachine`: what happens to
 * a request on each chain fact) as work on the request's queue (`SolverWorkQueue`: one piece of
 * work per request at a time, timers on the virtual clock); what the machine does is rule data
 * (`SolverRuleStore`), administered here so that a change looks again at requests held `pending`.
 */
export class Solver {
  private readonly queue: SolverWorkQueue;
  private readonly machine: SolverStateMachine;
  private readonly depositAddresses: DepositAddressSweeper;
  private readonly buffered: Array<{ chain: ChainAdapter; observation: ChainObservation }> = [];
  private readonly unsubscribers: Array<() => void> = [];

  constructor(private readonly deps: SolverDeps) {
    this.queue = new SolverWorkQueue(deps);
    this.depositAddresses = new DepositAddressSweeper(deps);
    this.machine = new SolverStateMachine({ ...deps, queue: this.queue, depositAddresses: this.depositAddresses });
  }

  /** Listens to every chain; observations wait until `activate()` (all chains started). */
  attach(): void {
    for (const chain of this.deps.chains.values()) {
      this.unsubscribers.push(chain.onObservation((observation) => this.observe(chain, observation)));
    }
  }

  /** Starts acting: resumes requests left mid-way by a previous run, then buffered observations. */
  async activate(): Promise<void> {
    this.resumeWork();
    await this.idle();
  }

  /** Opens the queue and schedules requests left mid-way (in the store), then buffered observations. */
  private resumeWork(): void {
    this.queue.start();
    const { requests } = this.deps.lifecycle;
    for (const id of requests.idsByStatus('submitted')) this.queue.schedule(id, () => this.machine.confirmSubmitted(id));
    for (const id of requests.idsByStatus('pending')) this.queue.schedule(id, () => this.machine.settlePending(id));
    // a deposit indexed just before a SIGKILL, whose request the machine had not yet moved: acted on
    // now (only the waiting requests with a deposit indexed are read: most waiting ones have none)
    const deposited = this.deps.chainIndex.requestIdsWithCanonicalDeposits();
    for (const id of requests.idsByStatus('waiting')) {
      if (!deposited.has(id.toLowerCase())) continue;
      const record = requests.get(id);
      if (!record || record.inTxs.some((tx) => tx.type === 'deposit')) continue;
      for (const deposit of this.deps.chainIndex.depositsForRequest(record.id)) {
        const chain = this.deps.chains.get(deposit.chainId);
        if (chain && deposit.state === 'canonical') this.observe(chain, { kind: 'deposit', deposit });
      }
    }
    for (const { chain, observation } of this.buffered.splice(0)) this.observe(chain, observation);
  }

  /**
   * Stops acting for a world revert: timers schedule nothing and observations wait; once the work
   * left only waits on receipts, it is abandoned (it stops at its receipt, writing nothing) with
   * every delay and timer. `resume()` acts again from what the store then holds.
   */
  async pause(): Promise<void> {
    this.queue.stop();
    await this.queue.idle({ unlessHeld: async () => true });
    this.queue.abandon();
    this.machine.forgetDelays();
  }

  /** Observations of chain `chainId` (every chain's, without it) heard while paused are dropped (the chain they described was reverted since). */
  dropHeardWhilePaused(chainId?: number): void {
    const kept = chainId === undefined ? [] : this.buffered.filter(({ chain }) => chain.chainId !== chainId);
    this.buffered.splice(0, this.buffered.length, ...kept);
  }

  /**
   * Acts again after `pause()`, as at start: requests left mid-way are resumed, then what was heard
   * meanwhile; returns once that work is scheduled (`idle()` waits for it).
   */
  resume(): void {
    this.resumeWork();
  }

  detach(): void {
    this.queue.stop();
    this.unsubscribers.splice(0).forEach((unsubscribe) => unsubscribe());
  }

  getPolicy(): SolverPolicy {
    return this.deps.rules.getPolicy();
  }

  /** `hold`: a catch-all `never` rule; `fill`: removes it and settles every request held in `pending`. */
  setPolicy(policy: SolverPolicy): void {
    if (this.deps.rules.setPolicy(policy) && policy === 'fill') this.rulesChanged();
  }

  /** Adds a rule (validated); requests held in `pending` are looked at again. */
  addRule(input: SolverRuleInput): SolverRule {
    const rule = this.deps.rules.add(input);
    this.rulesChanged();
    return rule;
  }

  /** See `SolverRuleStore.relayFaultFor`: the gasless relayer's scripted fault for a request. */
  relayFaultFor(record: RequestRecord): 'refuse' | 'drop' | undefined {
    return this.deps.rules.relayFaultFor(record);
  }

  /** The rules and the hold policy now (a world snapshot's part). */
  captureRules(): SolverRuleState {
    return this.deps.rules.capture();
  }

  /** Puts back rules `captureRules` returned (a world revert, while paused). */
  restoreRules(state: SolverRuleState): void {
    this.deps.rules.restore(state);
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
    this.rulesChanged();
  }

  /** Rules were added or removed: requests held in `pending` are looked at again. */
  private rulesChanged(): void {
    if (!this.queue.isOpen) return;
    for (const record of this.deps.lifecycle.requests.listByStatus('pending')) this.queue.schedule(record.id, () => this.machine.settlePending(record.id));
  }

  /** Forgets delays in progress, the hold switch and the rules (the control plane's reset). */
  reset(): void {
    this.machine.forgetDelays();
    this.deps.rules.reset();
  }

  /** See `SolverWorkQueue.idle`: `unlessHeld` counts work waiting on a receipt held in a pool as idle. */
  idle(options: { unlessHeld?: (tx: AwaitedSolverTransaction) => Promise<boolean> } = {}): Promise<void> {
    return this.queue.idle(options);
  }

  /** See `SolverWorkQueue.work`: the requests being worked on and the receipt each waits for. */
  work(): Array<{ requestId: string; awaiting: AwaitedSolverTransaction | undefined }> {
    return this.queue.work();
  }

  /**
   * SPEC §1.6 fast fill (`POST /fast-fill`): fills a quoted request before its deposit is
   * indexed, as if `assumedInput` had been deposited (the caller vouches for the deposit);
   * waiting → pending → submitted → success, `triggeredByFastFill` and feature `fast_fill` set.
   * Resolves once the fill is mined, or with why it was not made.
   */
  fastFill(requestId: string, assumedInput: bigint): Promise<FastFillOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.schedule(requestId, async () => {
        try {
          resolve(await this.machine.runFastFill(requestId, assumedInput));
        } catch (error) {
          reject(error);
          throw error;
        }
      });
    });
  }

  private observe(chain: ChainAdapter, observation: ChainObservation): void {
    if (!this.queue.isOpen) {
      this.buffered.push({ chain, observation });
      return;
    }
    if (observation.kind === 'depositAddressPaid') {
      this.queue.schedule(observation.requestId, () => this.depositAddresses.onPayment(chain, observation.requestId, observation.payment));
      return;
    }
    const requestId = observation.deposit.requestId.toLowerCase();
    if (observation.kind === 'deposit') this.queue.schedule(requestId, () => this.machine.onDeposit(chain, observation.deposit));
    else if (observation.kind === 'depositInMempool') this.queue.schedule(requestId, async () => this.machine.onDepositInMempool(chain, observation.deposit));
    else this.queue.schedule(requestId, async () => this.machine.onDepositReorged(chain, observation.deposit, observation.detectedAt, observation.conflictingTxHash));
  }
}
