import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestHandler } from 'express';

/**
 * The one store of every scope in the process: which scope the current call runs in. One for all,
 * not one per scope: each AsyncLocalStorage ever run stays in Node's list until disabled, and every
 * promise or async resource created later walks that list, so one per simulator made each start of
 * a process that starts many (a test worker, a scenario run) slow every async call after it.
 */
const runningScope = new AsyncLocalStorage<QuoteRpcScope>();

/**
 * Marks the RPC calls made while answering a quote (SPEC §7.1: REQUEST_TIMED_OUT and
 * RPC_HTTP_ERROR are quote errors). The quote routes run inside the scope; the chain
 * transport asks `active()` to apply the quote-time timeout and the admin faults only there.
 */
export class QuoteRpcScope {
  active(): boolean {
    return runningScope.getStore() === this;
  }

  run<T>(fn: () => T): T {
    return runningScope.run(this, fn);
  }

  /** Express middleware: the rest of the request runs inside the scope. */
  readonly middleware: RequestHandler = (_req, _res, next) => this.run(() => next());
}
