import type { EventEmitter } from 'node:events';

/**
 * Quotes priced at once. Past it the event loop only interleaves more of them: each takes longer
 * and the slowest wait seconds. Eight keeps the chain reads of several quotes overlapping while the
 * CPU work runs one after another.
 */
export const QUOTES_IN_FLIGHT = 8;

/**
 * Quotes started in one turn of the event loop. Node accepts one new connection per turn, and a
 * quote whose chain reads are all cached runs without I/O: started as they came, a turn priced one
 * quote for every open connection, so it grew with each connection accepted and the 64th of a
 * burst waited ~64 ever longer turns for its first answer (the p99 at 64 connections). One per
 * turn keeps a turn short: connections are accepted, timers fire and sockets are read between
 * quotes, and every quote waits its place in one queue.
 */
export const QUOTES_PER_TURN = 1;

/**
 * Express middleware, and what the quote fast path calls with node's own request and response: one
 * queue for both (`createApp` makes one).
 */
export type QuoteAdmission = (req: { method?: string | undefined }, res: Pick<EventEmitter, 'once'>, next: () => void) => void;

/**
 * Overload queues instead of collapsing: at most `limit` quotes run their pipeline at once and at
 * most `perTurn` start in one turn of the event loop; the others wait in arrival order and start
 * as earlier ones answer or on the next turn (`setImmediate`). A quote that finds the server idle
 * starts at once. A client never gets an error for waiting (the service has no such error); one
 * that hangs up while it waits leaves the queue. A slot is freed when the answer is sent or the
 * connection closes, whichever comes first.
 */
export function admitQuotesInOrder(limit: number = QUOTES_IN_FLIGHT, perTurn: number = QUOTES_PER_TURN): QuoteAdmission {
  let running = 0;
  // quotes started since the turn began; while above 0, `newTurn` is scheduled
  let startedThisTurn = 0;
  const waiting: Array<() => void> = [];
  const mayStart = () => running < limit && startedThisTurn < perTurn;
  const admitNext = () => {
    while (mayStart() && waiting.length > 0) waiting.shift()!();
  };
  const newTurn = () => {
    startedThisTurn = 0;
    admitNext();
  };
  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    let state: 'waiting' | 'running' | 'done' = 'waiting';
    const start = () => {
      state = 'running';
      running += 1;
      if (startedThisTurn++ === 0) setImmediate(newTurn);
      next();
    };
    const finished = () => {
      if (state === 'done') return;
      if (state === 'running') running -= 1;
      else waiting.splice(waiting.indexOf(start), 1);
      state = 'done';
      admitNext();
    };
    res.once('finish', finished);
    res.once('close', finished);
    if (mayStart() && waiting.length === 0) start();
    else waiting.push(start);
  };
}
