import type { Response } from 'express';
import type { VirtualClock } from '../clock/VirtualClock';
import { TooManyRequestsError } from '../errors/listingErrors';

export type RateDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

/**
 * SPEC §8: at most `limit` requests per `windowMs` for each key, as a sliding window on the
 * simulator's clock (a test or scenario moves time with `control.clock`, never waits). Only
 * allowed requests count. State lives here, per limiter; a world snapshot holds it (`RateLimiters`).
 */
export class SlidingWindowRateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(readonly options: { clock: Pick<VirtualClock, 'now'>; limit: number; windowMs: number; name: string }) {}

  consume(key: string): RateDecision {
    const now = this.options.clock.now();
    const windowStart = now - this.options.windowMs;
    const recent = (this.hits.get(key) ?? []).filter((at) => at > windowStart);
    if (recent.length >= this.options.limit) {
      this.hits.set(key, recent);
      const freesAt = recent[0]! + this.options.windowMs;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freesAt - now) / 1000)) };
    }
    recent.push(now);
    this.hits.set(key, recent);
    return { allowed: true, remaining: this.options.limit - recent.length };
  }

  /** The requests counted, by key (a copy). */
  capture(): RateLimiterState {
    return new Map([...this.hits].map(([key, times]) => [key, [...times]]));
  }

  /** Counts exactly `state` from now on. */
  restoreTo(state: RateLimiterState): void {
    this.hits.clear();
    for (const [key, times] of state) this.hits.set(key, [...times]);
  }
}

/** One limiter's requests counted: the virtual times of each key's recent requests. */
export type RateLimiterState = ReadonlyMap<string, readonly number[]>;

/**
 * The API's rate limiters, by name, so a world snapshot holds what they counted: its counts are
 * times on the virtual clock, and a revert sets the clock back, so counts of the world left behind
 * (later than the clock now) would refuse the first requests after a `reset()`.
 */
export class RateLimiters {
  private readonly byName = new Map<string, SlidingWindowRateLimiter>();

  create(options: SlidingWindowRateLimiter['options']): SlidingWindowRateLimiter {
    const limiter = new SlidingWindowRateLimiter(options);
    this.byName.set(options.name, limiter);
    return limiter;
  }

  capture(): Map<string, RateLimiterState> {
    return new Map([...this.byName].map(([name, limiter]) => [name, limiter.capture()]));
  }

  /** Each limiter counts what it had in `state` (nothing when it had no entry: it was built after). */
  restore(state: ReadonlyMap<string, RateLimiterState>): void {
    for (const [name, limiter] of this.byName) limiter.restoreTo(state.get(name) ?? new Map());
  }
}

/**
 * Counts one request of `key` against the limiter; sets the `RateLimit-*` headers, and on
 * refusal `Retry-After` (seconds) and throws 429 TOO_MANY_REQUESTS.
 */
export function enforceRateLimit(limiter: SlidingWindowRateLimiter, key: string, scope: string, res: Response): void {
  const decision = limiter.consume(key);
  res.set('RateLimit-Policy', `${limiter.options.limit};w=${Math.ceil(limiter.options.windowMs / 1000)}`);
  if (decision.allowed) {
    res.set('RateLimit-Remaining', String(decision.remaining));
    return;
  }
  res.set('RateLimit-Remaining', '0');
  res.set('Retry-After', String(decision.retryAfterSeconds));
  throw new TooManyRequestsError(limiter.options.limit, scope, decision.retryAfterSeconds);
}
