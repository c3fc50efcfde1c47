import { SimulatorError } from './SimulatorError';

/** `POST /fast-fill` (not in §7.1): the request is past `waiting` (deposited, filled or fast-filled). */
export class FastFillConflictError extends SimulatorError {
  constructor(requestId: string, status: string) {
    super('FAST_FILL_NOT_ALLOWED', 409, `request ${requestId} is ${status}: only a request still waiting for its deposit can be fast-filled`);
  }
}

/** `POST /fast-fill` (not in §7.1): the fill would not be made (input short of the quote, over the cap). */
export class FastFillRejectedError extends SimulatorError {
  constructor(message: string) {
    super('FAST_FILL_REJECTED', 400, message);
  }
}
