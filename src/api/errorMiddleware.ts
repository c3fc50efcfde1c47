import type { ErrorRequestHandler, RequestHandler } from 'express';
import { SimulatorError } from '../errors/SimulatorError';
import { InternalServerError, InvalidRequestBodyError, MalformedJsonError, PayloadTooLargeError, RouteNotFoundError, UnsupportedMediaTypeError } from '../errors/requestErrors';
import { upstreamRpcErrorOf } from '../errors/upstreamRpcErrors';

/** The largest JSON body the app reads (`express.json`). */
export const JSON_BODY_LIMIT = '1mb';
/** `JSON_BODY_LIMIT` in bytes, as express.json reads it (`bytes.parse('1mb')`). */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** Unknown routes answer 404 with an errorCode, like every other error. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new RouteNotFoundError(req.method, req.path));
};

/** What an error's answer says about the request it failed: its method, URL, path and headers. */
export interface FailedRequest {
  method?: string | undefined;
  originalUrl?: string | undefined;
  path?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Maps every error the same way: a SimulatorError to its status and body; a body-parser
 * failure to 400 INVALID_JSON; a quote's transient chain RPC failure to REQUEST_TIMED_OUT or
 * RPC_HTTP_ERROR (SPEC §7.1); anything else is logged with a log id and answered 500 with
 * an errorCode too. One mapper serves express's error middleware and the quote fast path, so
 * their log ids count on together.
 */
export function createErrorMapper(log: (message: string, error?: unknown) => void): (error: unknown, req: FailedRequest) => SimulatorError {
  let nextLogId = 1;
  return (error, req) => {
    if (error instanceof SimulatorError) return error;
    if (isBodyParserError(error)) return bodyParserErrorOf(error, String(req.headers['content-type'] ?? ''));
    // express could not decode a path parameter (`%E0%A4%A`, `%ZZ`): the caller's mistake, not a 500 (seen by the OpenAPI fuzz)
    if (error instanceof URIError) return new InvalidRequestBodyError(`Invalid request: path: ${(req.path ?? '').slice(0, 200)} is not valid percent-encoding`);
    const upstream = upstreamRpcErrorOf(error);
    if (upstream) return upstream;
    const logId = `err-${nextLogId++}`;
    log(`${logId}: ${req.method} ${req.originalUrl} failed`, error);
    return new InternalServerError(logId, error);
  };
}

/** Express's error middleware: `mapError`'s status and `{ errorCode, message }` body (the app passes the mapper it shares with the quote fast path). */
export function createErrorMiddleware(
  log: (message: string, error?: unknown) => void,
  mapError: (error: unknown, req: FailedRequest) => SimulatorError = createErrorMapper(log),
): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const mapped = mapError(error, req);
    res.status(mapped.httpStatus).json(mapped.toResponseBody());
  };
}

/** A body the JSON parser refused, as the API's own errors (documented on every route: src/api/openapi/apiOperation.ts). */
function bodyParserErrorOf(error: { type: string; status: number; message: string }, contentType: string): SimulatorError {
  if (error.type === 'entity.too.large') return new PayloadTooLargeError(JSON_BODY_LIMIT, { cause: error });
  if (error.type === 'charset.unsupported' || error.status === 415) return new UnsupportedMediaTypeError(contentType);
  // entity.parse.failed, and a body that ends before its Content-Length or is otherwise unreadable
  return new MalformedJsonError({ cause: error });
}

function isBodyParserError(error: unknown): error is { type: string; status: number; message: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { type?: unknown }).type === 'string' &&
    typeof (error as { status?: unknown }).status === 'number' &&
    (error as { status: number }).status < 500
  );
}
