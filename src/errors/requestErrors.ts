import { SimulatorError, type SimulatorErrorOptions } from './SimulatorError';

/** Generic input errors shared by every route (schema violations, unknown routes, unknown ids). */
export class InvalidRequestBodyError extends SimulatorError {
  constructor(message: string, options?: SimulatorErrorOptions) {
    super('INVALID_INPUT_PARAMS', 400, message, options);
  }
}

export class MalformedJsonError extends SimulatorError {
  constructor(options?: SimulatorErrorOptions) {
    super('INVALID_JSON', 400, 'Request body is not valid JSON', options);
  }
}

export class PayloadTooLargeError extends SimulatorError {
  constructor(limit: string, options?: SimulatorErrorOptions) {
    super('PAYLOAD_TOO_LARGE', 413, `Request body is larger than ${limit}`, options);
  }
}

export class RouteNotFoundError extends SimulatorError {
  constructor(method: string, path: string) {
    super('ROUTE_NOT_FOUND', 404, `No route ${method} ${path}`);
  }
}

export class RequestNotFoundError extends SimulatorError {
  constructor(requestId: string) {
    super('REQUEST_NOT_FOUND', 404, `No request with id ${requestId}`);
  }
}

export class InternalServerError extends SimulatorError {
  constructor(requestLogId: string, cause: unknown) {
    super('INTERNAL_ERROR', 500, `Unexpected error (log id ${requestLogId})`, { cause });
  }
}

export class UnsupportedMediaTypeError extends SimulatorError {
  constructor(contentType: string) {
    super('UNSUPPORTED_MEDIA_TYPE', 415, `Request body must be JSON (Content-Type: application/json), got ${contentType || 'no Content-Type'}`);
  }
}

export class UnsupportedContentEncodingError extends SimulatorError {
  constructor(encoding: string) {
    super('UNSUPPORTED_CONTENT_ENCODING', 415, `Request body must not be compressed (Content-Encoding: ${encoding}); send it as plain JSON`);
  }
}
