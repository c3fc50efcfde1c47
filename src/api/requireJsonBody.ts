import type { RequestHandler } from 'express';
import { UnsupportedContentEncodingError, UnsupportedMediaTypeError } from '../errors/requestErrors';

/** A request carries a body when it says so: a non-zero Content-Length, or a chunked transfer. */
export function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return (length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined;
}

/**
 * Every body the API reads is JSON, uncompressed: anything else is a 415 with an errorCode before a
 * parser sees it (a text/plain body is not read as "every field missing"; a body that only claims
 * to be gzip is not inflated into a 500).
 */
export const requireJsonBody: RequestHandler = (req, _res, next) => {
  if (!hasBody(req.headers)) return next();
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') return next(new UnsupportedContentEncodingError(encoding));
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  const mediaType = type.split(';')[0]!.trim();
  if (mediaType !== 'application/json' && !mediaType.endsWith('+json')) return next(new UnsupportedMediaTypeError(type));
  next();
};
