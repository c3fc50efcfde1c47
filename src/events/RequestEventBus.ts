import type { RequestRecord } from '../domain/request/requestRecord';
import type { RequestStatus } from '../domain/request/requestStatus';

/** A status change that has been committed to the store. */
export interface CommittedStatusChange {
  seq: number;
  requestId: string;
  from: RequestStatus | null;
  to: RequestStatus;
  at: number;
  record: RequestRecord;
}

type Listener = (change: CommittedStatusChange) => void;

/**
 * Fans committed status changes out to in-process listeners (webhook dispatcher, websocket
 * stream, tests). Only called after the SQLite transaction has committed.
 */
export class RequestEventBus {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(change: CommittedStatusChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch {
        // a listener's failure must not stop the others or the caller
      }
    }
  }

  /** Resolves with the first committed change for `requestId` that reaches one of `statuses`. */
  waitFor(requestId: string, statuses: readonly RequestStatus[], signal?: AbortSignal): Promise<CommittedStatusChange> {
    return new Promise((resolve, reject) => {
      const unsubscribe = this.subscribe((change) => {
        if (change.requestId === requestId.toLowerCase() && statuses.includes(change.to)) {
          unsubscribe();
          resolve(change);
        }
      });
      signal?.addEventListener('abort', () => {
        unsubscribe();
        reject(signal.reason);
      });
    });
  }
}
