import { SimulatorError } from './SimulatorError';

/** SPEC §4.3 / §7.5: a `continuation` that is not a cursor this listing issued (or was issued for another sort). */
export class InvalidContinuationError extends SimulatorError {
  constructor(reason: string) {
    super('INVALID_CONTINUATION', 400, `continuation is not a valid cursor for this listing: ${reason}`);
  }
}

/** SPEC §8: over the per-key (or per-client) rate; the answer carries `Retry-After`. */
export class TooManyRequestsError extends SimulatorError {
  constructor(limit: number, scope: string, retryAfterSeconds: number) {
    super('TOO_MANY_REQUESTS', 429, `Rate limit of ${limit} requests per second exceeded for ${scope}; retry after ${retryAfterSeconds} s`);
  }
}

/** SPEC §9: an endpoint past its retirement date. */
export class EndpointRetiredError extends SimulatorError {
  constructor(path: string, retiredOn: string, successor: string) {
    super('ENDPOINT_RETIRED', 410, `${path} was retired on ${retiredOn}; use ${successor} instead`);
  }
}
