import type { ClockTimer, VirtualClock } from '../../clock/VirtualClock';
import { nextWebhookAttemptAt } from '../../domain/webhook/webhookRetrySchedule';
import type { WebhookDelivery, WebhookStore } from '../../store/WebhookStore';
import type { RequestEventBus } from '../RequestEventBus';
import { SIGNATURE_HEADER, SIGNATURE_TIMESTAMP_HEADER, signWebhookBody } from './webhookSignature';

export interface WebhookDispatcherDeps {
  store: WebhookStore;
  clock: VirtualClock;
  bus: RequestEventBus;
  /** Wait before the first retry; doubles each retry (SPEC §6.2). */
  retryBaseMs: number;
  /** Real milliseconds a receiver has to answer before the attempt counts as failed. */
  requestTimeoutMs?: number;
  log: (message: string, error?: unknown) => void;
}

/**
 * Sends the webhook outbox (SPEC §6.2): each pending delivery is POSTed with real HTTP, signed
 * per attempt (SPEC §6.3); a 2xx answer delivers it; a non-2xx answer or a network error is
 * retried up to 10 times with exponential backoff on the virtual clock. Every attempt is logged.
 * On start, deliveries left pending by an earlier process are rescheduled at their due time.
 */
export class WebhookDispatcher {
  private readonly timers = new Map<number, ClockTimer>();
  private readonly inFlight = new Set<Promise<void>>();
  private aborter = new AbortController();
  private unsubscribe: (() => void) | undefined;
  /** No attempt starts or records anything (paused, or stopped for good). */
  private stopped = false;
  private closed = false;

  constructor(private readonly deps: WebhookDispatcherDeps) {}

  start(): void {
    this.stopped = false;
    this.unsubscribe = this.deps.bus.subscribe((change) => {
      // the outbox writes deliveries for requests made with an API key only
      if (change.record.apiKey === null) return;
      for (const delivery of this.deps.store.pendingForEvent(change.seq)) this.schedule(delivery);
    });
    for (const delivery of this.deps.store.pending()) this.schedule(delivery);
  }

  /** Resolves once no attempt is in flight (scheduled retries do not count). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Cancels scheduled retries and aborts attempts in flight; their deliveries stay pending in the store. */
  async stop(): Promise<void> {
    this.closed = true;
    await this.pause();
  }

  /**
   * As `stop()`, for a while (a world revert): no attempt in flight records anything once this
   * resolves; `resume()` schedules what the store then holds pending, as a start does.
   */
  async pause(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
    this.aborter.abort(new Error('simulator stopping'));
    await this.idle();
  }

  /** Delivers again after `pause()` (never after `stop()`). */
  resume(): void {
    if (this.closed || !this.stopped) return;
    this.aborter = new AbortController();
    this.start();
  }

  private schedule(delivery: WebhookDelivery): void {
    if (this.stopped || this.timers.has(delivery.id)) return;
    const delay = (delivery.nextAttemptAt ?? this.deps.clock.now()) - this.deps.clock.now();
    if (delay <= 0) {
      this.runAttempt(delivery.id);
      return;
    }
    this.timers.set(
      delivery.id,
      this.deps.clock.setTimeout(() => {
        this.timers.delete(delivery.id);
        this.runAttempt(delivery.id);
      }, delay),
    );
  }

  private runAttempt(deliveryId: number): void {
    // after the current call stack: a status change's publisher never waits on a receiver
    const running = Promise.resolve()
      .then(() => this.attempt(deliveryId))
      .catch((error: unknown) => this.deps.log(`webhook delivery ${deliveryId} failed unexpectedly`, error))
      .finally(() => this.inFlight.delete(running));
    this.inFlight.add(running);
  }

  private async attempt(deliveryId: number): Promise<void> {
    if (this.stopped) return;
    const delivery = this.deps.store.getDelivery(deliveryId);
    if (!delivery || delivery.state !== 'pending') return;
    const { clock } = this.deps;
    const attempt = delivery.attempts + 1;
    const at = clock.now();
    const signatureTimestamp = clock.nowSeconds();
    const signature = signWebhookBody({ body: delivery.body, timestamp: signatureTimestamp, apiKey: delivery.apiKey });
    let statusCode: number | null = null;
    let error: string | null = null;
    // one deadline for the whole attempt (connect, headers, body), on a real timer that always
    // fires: `AbortSignal.any` over `AbortSignal.timeout` was seen never to fire on Node 20
    const attemptAborter = new AbortController();
    const onStop = () => attemptAborter.abort(new Error('simulator stopping'));
    const stopSignal = this.aborter.signal;
    stopSignal.addEventListener('abort', onStop, { once: true });
    const timeoutMs = this.deps.requestTimeoutMs ?? 10_000;
    const deadline = setTimeout(() => attemptAborter.abort(new WebhookTimeoutError(timeoutMs)), timeoutMs);
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          ...delivery.headers,
          'content-type': 'application/json',
          'user-agent': 'intentsim-webhooks',
          [SIGNATURE_TIMESTAMP_HEADER]: String(signatureTimestamp),
          [SIGNATURE_HEADER]: signature,
        },
        body: delivery.body,
        redirect: 'manual',
        signal: attemptAborter.signal,
      });
      statusCode = response.status;
      // the answer's body is not needed: drop it (a receiver that never finishes it cannot hold the attempt)
      await response.body?.cancel().catch(() => undefined);
    } catch (caught) {
      if (this.stopped) return; // not an answer of the receiver: the next process tries again
      error = attemptAborter.signal.reason instanceof WebhookTimeoutError ? attemptAborter.signal.reason.message : describeFetchError(caught);
    } finally {
      clearTimeout(deadline);
      stopSignal.removeEventListener('abort', onStop);
    }
    const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const nextAttemptAt = delivered ? null : nextWebhookAttemptAt({ attemptsMade: attempt, lastAttemptAt: at, baseMs: this.deps.retryBaseMs });
    const state = delivered ? 'delivered' : nextAttemptAt === null ? 'failed' : 'pending';
    this.deps.store.recordAttempt(deliveryId, { attempt, at, signatureTimestamp, statusCode, error }, { state, nextAttemptAt, deliveredAt: delivered ? clock.now() : null });
    if (state === 'pending') this.schedule({ ...delivery, attempts: attempt, nextAttemptAt });
  }
}

/** An attempt that got no complete answer in time. */
class WebhookTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`the receiver did not answer in time (${timeoutMs} ms)`);
  }
}

function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const detail = cause instanceof Error ? `: ${cause.message}` : '';
  return error.name === 'TimeoutError' ? 'the receiver did not answer in time' : `${error.message}${detail}`;
}
