import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

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
  private answering = 0;
  private readonly whenNoneAnswering: Array<() => void> = [];
  /** The requests that came while the API is held, in order. */
  private held: Array<() => void> | undefined;

  /** The server's listener: `listener` answers each request, once no hold is on. */
  wrap(listener: RequestListener): RequestListener {
    return (req, res) => {
      if (WORLD_ROUTES.test(req.url ?? '')) return listener(req, res);
      if (this.held) this.held.push(() => this.answer(listener, req, res));
      else this.answer(listener, req, res);
    };
  }

  /** Holds new requests; resolves once none is in flight, with the function that lets the held ones on. */
  async hold(): Promise<() => void> {
    const held = (this.held ??= []);
    if (this.answering > 0) await new Promise<void>((resolve) => this.whenNoneAnswering.push(resolve));
    return () => {
      if (this.held !== held) return;
      this.held = undefined;
      for (const answer of held) answer();
    };
  }

  private answer(listener: RequestListener, req: IncomingMessage, res: ServerResponse): void {
    this.answering += 1;
    let done = false;
    const answered = () => {
      if (done) return;
      done = true;
      this.answering -= 1;
      if (this.answering === 0) for (const resolve of this.whenNoneAnswering.splice(0)) resolve();
    };
    res.once('finish', answered);
    res.once('close', answered);
    void listener(req, res);
  }
}
