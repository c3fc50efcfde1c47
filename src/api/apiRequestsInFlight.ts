import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { WorkInFlight } from '../process/WorkInFlight';

/** The world routes: a revert is one of them, and snapshots and reverts are serialised where they are made. */
const WORLD_ROUTES = /^\/admin\/(?:snapshot|revert|reset)(?:[?#]|$)/;

/**
 * The API's requests being answered, and a hold on new ones. A world revert
 * (`src/root/worldSnapshots.ts`) holds the API first: it waits until every request in flight is
 * answered (a quote that read the chains before the revert writes its request before it, and is
 * reverted with the rest), and the requests that come meanwhile wait, unread, until the revert is
 * done (none answers from, or writes into, a world half put back). The world routes themselves
 * always pass. A request stays in flight until its answer is sent or its client goes away; one
 * whose body never arrives is answered 408 after `--http-request-timeout`.
 */
export class ApiRequestsInFlight {
  private readonly work = new WorkInFlight();

  /** The server's listener: `listener` answers each request, once no hold is on. */
  wrap(listener: RequestListener): RequestListener {
    return (req, res) => {
      if (WORLD_ROUTES.test(req.url ?? '')) return listener(req, res);
      // no hold: answered at once, without waiting for a microtask
      if (this.work.holding) void this.work.afterHold().then(() => this.answer(listener, req, res));
      else this.answer(listener, req, res);
    };
  }

  /** Holds new requests; resolves once none is in flight, with the function that lets the held ones on. */
  hold(): Promise<() => void> {
    return this.work.hold();
  }

  private answer(listener: RequestListener, req: IncomingMessage, res: ServerResponse): void {
    // a hold taken while this one waited for the last: it waits for the new one too
    if (this.work.holding) return void this.work.afterHold().then(() => this.answer(listener, req, res));
    const answered = this.work.started();
    res.once('finish', answered);
    res.once('close', answered);
    void listener(req, res);
  }
}
