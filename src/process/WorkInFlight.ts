/**
 * Work under way in this process (requests being answered, calls being forwarded) and a hold on
 * new work: `hold()` keeps work that has not started from starting, resolves once none is under
 * way, and gives the function that lets the held work on, in the order it came. A world revert
 * holds the API and each EVM chain's front with one each (`src/api/apiRequestsInFlight.ts`,
 * `src/chains/evm/front/EvmRpcFront.ts`).
 */
export class WorkInFlight {
  private running = 0;
  private readonly whenNoneRunning: Array<() => void> = [];
  private held: { over: Promise<void>; release: () => void } | undefined;

  /** Whether a hold is on: work that starts now waits for `afterHold()`. */
  get holding(): boolean {
    return this.held !== undefined;
  }

  /** Resolves once no hold is on (work waiting on it goes on in the order it waited). */
  async afterHold(): Promise<void> {
    while (this.held) await this.held.over;
  }

  /** One piece of work starts: returns the function that says it is done (once; later calls do nothing). */
  started(): () => void {
    this.running += 1;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.running -= 1;
      if (this.running === 0) for (const resolve of this.whenNoneRunning.splice(0)) resolve();
    };
  }

  /** Holds work that has not started; resolves once none is under way, with the function that lets the held work on. */
  async hold(): Promise<() => void> {
    if (!this.held) {
      let release = (): void => undefined;
      const over = new Promise<void>((resolve) => (release = resolve));
      this.held = { over, release };
    }
    const mine = this.held;
    if (this.running > 0) await new Promise<void>((resolve) => this.whenNoneRunning.push(resolve));
    return () => {
      if (this.held !== mine) return;
      this.held = undefined;
      mine.release();
    };
  }
}
