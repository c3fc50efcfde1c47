import type { ErrorRequestHandler, RequestHandler } from 'express';
import { SimulatorError } from '../errors/SimulatorError';
import { InternalServerError, MalformedJsonError, RouteNotFoundError } from '../errors/requestErrors';
import { upstreamRpcErrorOf } from '../errors/upstreamRpcErrors';

/** Unknown routes answer 404 with an errorCode, like every other error. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new RouteNotFoundError(req.method, req.path));
};

/**
 * Maps every error the same way: a SimulatorError to its status and body; a body-parser
 * failure to 400 INVALID_JSON; a quote's transient chain RPC failure to REQUEST_TIMED_OUT or
 * RPC_HTTP_ERROR (SPEC §7.1); anything else is logged with a log id and answered 500 with
 * an errorCode too.
 */
export function createErrorMiddleware(log: (message: string, error?: unknown) => void): ErrorRequestHandler {
  let nextLogId = 1;
  return (error: unknown, req, res, _next) => {
    let mapped: SimulatorError;
    if (error instanceof SimulatorError) mapped = error;
    else if (isBodyParserError(error)) mapped = error.type === 'entity.parse.failed' ? new MalformedJsonError({ cause: error }) : new SimulatorError('INVALID_REQUEST', error.status, error.message);
    else {
      const upstream = upstreamRpcErrorOf(error);
      if (upstream) mapped = upstream;
      else {
        const logId = `err-${nextLogId++}`;
        log(`${logId}: ${req.method} ${req.originalUrl} failed`, error);
        mapped = new InternalServerError(logId, error);
      }
    }
    res.status(mapped.httpStatus).json(mapped.toResponseBody());
  };
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
