import { IntentsimError, type IntentsimErrorOptions } from './IntentsimError';

/**
 * One error base class for everything the API can answer with. Each subclass carries its
 * `errorCode` and HTTP status; the error middleware maps every error the same way
 * (`{ errorCode, message, statusCode, ...extraBody }`).
 */
export interface SimulatorErrorOptions extends IntentsimErrorOptions {
  /** Extra fields the SPEC names for this error's body (e.g. `requestId`, `failedCallData`). */
  extraBody?: Record<string, unknown>;
}

/** Longest message an answer carries: a message that echoes a huge input is cut, not sent whole. */
export const MAX_MESSAGE_LENGTH = 500;

function clipMessage(message: string): string {
  if (message.length <= MAX_MESSAGE_LENGTH) return message;
  return `${message.slice(0, MAX_MESSAGE_LENGTH)}… (${message.length - MAX_MESSAGE_LENGTH} more characters)`;
}

export class SimulatorError extends IntentsimError {
  readonly errorCode: string;
  readonly httpStatus: number;
  readonly extraBody: Record<string, unknown>;

  constructor(errorCode: string, httpStatus: number, shortMessage: string, options: SimulatorErrorOptions = {}) {
    super(clipMessage(shortMessage), options);
    this.errorCode = errorCode;
    this.httpStatus = httpStatus;
    this.extraBody = options.extraBody ?? {};
  }

  /** The JSON body of the HTTP answer. `statusCode` is in the body because the official SDK reads it there. */
  toResponseBody(): Record<string, unknown> {
    return { errorCode: this.errorCode, message: this.shortMessage, statusCode: this.httpStatus, ...this.extraBody };
  }
}
