/**
 * The one clock of the simulator. Nothing else reads wall time.
 *
 * - `real` mode (the default): now() follows the machine clock, shifted by any `advance()`.
 * - `manual` mode: time stands still until a scenario or test calls `advance()` / `set()`.
 *
 * Timers scheduled with `setTimeout` fire on the virtual timeline: in manual mode only when
 * time is advanced past their due time, in real mode after the real delay (minus any advance).
 */
export type ClockMode = 'real' | 'manual';

export interface ClockTimer {
  cancel(): void;
}

interface PendingTimer {
  id: number;
  dueAt: number;
  callback: () => void;
  realHandle: NodeJS.Timeout | undefined;
}

export class VirtualClock {
  readonly mode: ClockMode;
  private offsetMs: number;
  private manualNowMs: number;
  private nextTimerId = 1;
  private readonly timers = new Map<number, PendingTimer>();

  constructor(options: { mode?: ClockMode; startMs?: number } = {}) {
    this.mode = options.mode ?? 'real';
    const wallNow = Date.now();
    const start = options.startMs ?? wallNow;
    this.offsetMs = start - wallNow;
    this.manualNowMs = start;
  }

  /** Virtual unix time in milliseconds. */
  now(): number {
    return this.mode === 'manual' ? this.manualNowMs : Date.now() + this.offsetMs;
  }

  /** Virtual unix time in whole seconds. */
  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  /** Moves virtual time forward and fires every timer that became due, in due order. */
  advance(ms: number): void {
    if (ms < 0) throw new RangeError('clock cannot move backwards');
    if (this.mode === 'manual') this.manualNowMs += ms;
    else this.offsetMs += ms;
    this.fireDueTimers();
  }

  set(unixMs: number): void {
    const delta = unixMs - this.now();
    this.advance(Math.max(0, delta));
  }

  /**
   * Puts virtual time at `unixMs`, earlier or later, without firing anything: the one way time
   * goes back, used only by a world revert (`src/root/worldSnapshots.ts`). Pending timers keep
   * the wait they had left (a watcher's poll still comes after its interval).
   */
  restoreTo(unixMs: number): void {
    const delta = unixMs - this.now();
    if (this.mode === 'manual') this.manualNowMs = unixMs;
    else this.offsetMs += delta;
    for (const timer of this.timers.values()) {
      timer.dueAt += delta;
      if (timer.realHandle) {
        clearTimeout(timer.realHandle);
        this.armRealTimer(timer);
      }
    }
  }

  setTimeout(callback: () => void, delayMs: number): ClockTimer {
    const id = this.nextTimerId++;
    const timer: PendingTimer = { id, dueAt: this.now() + Math.max(0, delayMs), callback, realHandle: undefined };
    this.timers.set(id, timer);
    if (this.mode === 'real') this.armRealTimer(timer);
    return { cancel: () => this.cancelTimer(id) };
  }

  /** Resolves after `ms` of virtual time. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimeout(resolve, ms));
  }

  /** Cancels every pending timer (used on shutdown). */
  cancelAll(): void {
    for (const id of [...this.timers.keys()]) this.cancelTimer(id);
  }

  private armRealTimer(timer: PendingTimer): void {
    const wait = Math.max(0, timer.dueAt - this.now());
    timer.realHandle = setTimeout(() => {
      timer.realHandle = undefined;
      this.fireDueTimers();
      // Node's timers count from the event loop's cached time, which may be a few ms behind the
      // Date.now() the due time was taken from: a timer can fire before it is due, and is armed again
      if (this.timers.has(timer.id) && timer.realHandle === undefined) this.armRealTimer(timer);
    }, wait);
    timer.realHandle.unref?.();
  }

  private cancelTimer(id: number): void {
    const timer = this.timers.get(id);
    if (!timer) return;
    if (timer.realHandle) clearTimeout(timer.realHandle);
    this.timers.delete(id);
  }

  private fireDueTimers(): void {
    const now = this.now();
    const due = [...this.timers.values()].filter((t) => t.dueAt <= now).sort((a, b) => a.dueAt - b.dueAt || a.id - b.id);
    for (const timer of due) {
      if (!this.timers.has(timer.id)) continue; // cancelled by an earlier callback
      this.cancelTimer(timer.id);
      timer.callback();
    }
  }
}
