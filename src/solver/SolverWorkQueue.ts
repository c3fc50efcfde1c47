import type { Hex } from 'viem';
import type { ClockTimer, VirtualClock } from '../clock/VirtualClock';
import { IntentsimError } from '../errors/IntentsimError';

/** A solver transaction whose receipt a request's work waits for. */
export interface AwaitedSolverTransaction {
  chainId: number;
  txHash: Hex;
  /** What the transaction is (said in a scenario's "what is pending"). */
  kind?: 'fill' | 'refund';
}

/** Work of a world a revert left: it stops at its next receipt instead of writing into the world restored. */
export class WorkAbandonedError extends IntentsimError {
  constructor() {
    super('the world was reverted: this work was abandoned');
  }
}

/**
 * The solver's per-request scheduling: work on one request runs one piece at a time, in the order
 * it was scheduled (work on different requests runs side by side); timers run on the virtual
 * clock and schedule their work only while the queue is open. `idle()` says when nothing is left.
 */
export class SolverWorkQueue {
  private open = false;
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Requests whose work waits for the receipt of one of the solver's transactions, by request id. */
  private readonly awaitingReceipt = new Map<string, AwaitedSolverTransaction>();
  /** Timers of `scheduleAfter` not yet fired. */
  private readonly timers = new Set<ClockTimer>();
  /** Counts `abandon()` calls: work that began before the last one stops at its next receipt. */
  private generation = 0;

  constructor(private readonly deps: { clock: VirtualClock; log: (message: string, error?: unknown) => void }) {}

  /** Work may be scheduled from timers from now on (all chains started). */
  start(): void {
    this.open = true;
  }

  /** Timers that fire from now on schedule nothing. */
  stop(): void {
    this.open = false;
  }

  get isOpen(): boolean {
    return this.open;
  }

  /**
   * Forgets every piece of work and timer (a world revert, once the queue is stopped and only work
   * waiting on a receipt is left): such work throws `WorkAbandonedError` when its receipt comes, so
   * nothing of the old world writes after the revert.
   */
  abandon(): void {
    this.generation += 1;
    for (const timer of this.timers) timer.cancel();
    this.timers.clear();
    this.inFlight.clear();
    this.awaitingReceipt.clear();
  }

  /** Runs `work` after the work already scheduled for `requestId`; a failure is logged, never thrown. */
  schedule(requestId: string, work: () => Promise<void>): void {
    const key = requestId.toLowerCase();
    const previous = this.inFlight.get(key) ?? Promise.resolve();
    const next = previous
      .then(work)
      .catch((error: unknown) => {
        if (!(error instanceof WorkAbandonedError)) this.deps.log(`solver: request ${key} failed to progress`, error);
      })
      .finally(() => {
        if (this.inFlight.get(key) === next) this.inFlight.delete(key);
      });
    this.inFlight.set(key, next);
  }

  /** After `delayMs` on the virtual clock: `onDue`, then `work` is scheduled if the queue is still open. */
  scheduleAfter(delayMs: number, requestId: string, work: () => Promise<void>, onDue: () => void = () => {}): void {
    const timer = this.deps.clock.setTimeout(() => {
      this.timers.delete(timer);
      onDue();
      if (this.open) this.schedule(requestId, work);
    }, delayMs);
    this.timers.add(timer);
  }

  /** Waits for the receipt of a solver transaction, marked as such for `idle`. */
  async whileAwaitingReceipt<T>(requestId: string, tx: AwaitedSolverTransaction, wait: () => Promise<T>): Promise<T> {
    const key = requestId.toLowerCase();
    const generation = this.generation;
    this.awaitingReceipt.set(key, tx);
    try {
      const result = await wait();
      if (generation !== this.generation) throw new WorkAbandonedError();
      return result;
    } finally {
      if (generation === this.generation && this.awaitingReceipt.get(key) === tx) this.awaitingReceipt.delete(key);
    }
  }

  /** The requests being worked on now, each with the solver transaction whose receipt it waits for, if any (a scenario's "what is pending"). */
  work(): Array<{ requestId: string; awaiting: AwaitedSolverTransaction | undefined }> {
    return [...this.inFlight.keys()].sort().map((requestId) => ({ requestId, awaiting: this.awaitingReceipt.get(requestId) }));
  }

  /**
   * Resolves when no request is being worked on. With `unlessHeld`, a request whose work waits
   * for the receipt of a transaction `unlessHeld` says will not be mined until told (its chain's
   * automine is off and it waits in the pool) counts as idle too: a fill held in the mempool.
   */
  async idle(options: { unlessHeld?: (tx: AwaitedSolverTransaction) => Promise<boolean> } = {}): Promise<void> {
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
}
