/**
 * One error base class for everything the API can answer with. Each subclass carries its
 * `errorCode` and HTTP status; the error middleware maps every error the same way
 * (`{ errorCode, message, statusCode, ...extraBody }`).
 */
export interface SimulatorErrorOptions {
  cause?: unknown;
  /** Extra fields the SPEC names for this error's body (e.g. `requestId`, `failedCallData`). */
  extraBody?: Record<string, unknown>;
  /** Details for logs, not sent to clients. */
  details?: string;
}

export class SimulatorError extends Error {
  readonly errorCode: string;
  readonly httpStatus: number;
  readonly shortMessage: string;
  readonly extraBody: Record<string, unknown>;
  readonly details: string | undefined;

  constructor(errorCode: string, httpStatus: number, shortMessage: string, options: SimulatorErrorOptions = {}) {
    super(shortMessage, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.errorCode = errorCode;
    this.httpStatus = httpStatus;
    this.shortMessage = shortMessage;
    this.extraBody = options.extraBody ?? {};
    this.details = options.details;
  }

  /** The JSON body of the HTTP answer. `statusCode` is in the body because the official SDK reads it there. */
  toResponseBody(): Record<string, unknown> {
    return { errorCode: this.errorCode, message: this.shortMessage, statusCode: this.httpStatus, ...this.extraBody };
  }
}
