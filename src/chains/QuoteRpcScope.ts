import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestHandler } from 'express';

/**
 * Marks the RPC calls made while answering a quote (SPEC §7.1: REQUEST_TIMED_OUT and
 * RPC_HTTP_ERROR are quote errors). The quote routes run inside the scope; the chain
 * transport asks `active()` to apply the quote-time timeout and the admin faults only there.
 */
export class QuoteRpcScope {
  private readonly storage = new AsyncLocalStorage<true>();

  active(): boolean {
    return this.storage.getStore() === true;
  }

  run<T>(fn: () => T): T {
    return this.storage.run(true, fn);
  }

  /** Express middleware: the rest of the request runs inside the scope. */
  readonly middleware: RequestHandler = (_req, _res, next) => this.run(() => next());
}
