/**
 * The root of every error the simulator throws (viem's habit: a short message, the cause, and
 * details for logs). Two branches: `SimulatorError` (an API answer: errorCode + HTTP status, mapped
 * by the error middleware) and the internal areas below (config, process, chain, lifecycle), which
 * reach a client only as a 500 `INTERNAL_ERROR` with a log id.
 */
export interface IntentsimErrorOptions {
  cause?: unknown;
  /** Details for logs, not sent to clients. */
  details?: string;
}

export class IntentsimError extends Error {
  readonly shortMessage: string;
  readonly details: string | undefined;

  constructor(shortMessage: string, options: IntentsimErrorOptions = {}) {
    super(shortMessage, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.shortMessage = shortMessage;
    this.details = options.details;
  }
}

/** A setting, flag or environment value the simulator cannot run with. */
export class ConfigurationError extends IntentsimError {}

/** A child process (a chain node) that cannot be found, started or kept running. */
export class ProcessError extends IntentsimError {}

/** A chain that does not answer, or answers what the adapter cannot use. */
export class ChainError extends IntentsimError {}

/** A request lifecycle rule broken by the simulator's own code (SPEC §3): a bug, never a client's error. */
export class LifecycleError extends IntentsimError {}
