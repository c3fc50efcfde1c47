import type { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/** The error codes an operation answers, by HTTP status (each answer is the `{ errorCode, message }` envelope). */
export type ErrorCodesByStatus = Partial<Record<number, readonly string[]>>;

/**
 * One route as `GET /openapi.json` describes it, built from the zod schemas the route parses its
 * input with and the schema its answer is built to (one source: no hand-kept copy).
 */
export interface ApiOperation {
  method: HttpMethod;
  /** OpenAPI path (`{name}` parameters). */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** An object schema: each key is one query parameter. */
  query?: z.ZodObject;
  /** An object schema: each key is one path parameter. */
  params?: z.ZodObject;
  body?: z.ZodType;
  /** The success answer (status `successStatus`, 200 unless stated). */
  response: z.ZodType;
  successStatus?: 200 | 201 | 204;
  errors: ErrorCodesByStatus;
  /** SPEC §5: where `x-api-key` is required, or accepted (optional). */
  apiKey?: 'required' | 'optional';
  deprecated?: boolean;
  /** Headers every 200 answer carries (name → description). */
  responseHeaders?: Record<string, string>;
}

/**
 * Errors every route can answer: a body is read on every method before the route runs, so one that
 * is not JSON (415), not parseable (400) or over 1 MiB (413) is refused on any route; an unknown
 * failure is a 500.
 */
export const COMMON_ERRORS: ErrorCodesByStatus = {
  400: ['INVALID_JSON'],
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE', 'UNSUPPORTED_CONTENT_ENCODING'],
  500: ['INTERNAL_ERROR'],
};

/**
 * Errors of every route with path parameters: a value that leaves the path (empty, `..`) reaches no
 * route; one that is not valid percent-encoding is refused.
 */
export const PATH_PARAMETER_ERRORS: ErrorCodesByStatus = { 400: ['INVALID_INPUT_PARAMS'], 404: ['ROUTE_NOT_FOUND'] };

/** Errors of every route that takes a JSON body (SPEC "bad input gets a 4xx"). */
export const BODY_ERRORS: ErrorCodesByStatus = { 400: ['INVALID_JSON', 'INVALID_INPUT_PARAMS'], 415: ['UNSUPPORTED_MEDIA_TYPE', 'UNSUPPORTED_CONTENT_ENCODING'] };

/** Merges error tables: the codes of one status are joined. */
export function mergeErrors(...tables: ErrorCodesByStatus[]): ErrorCodesByStatus {
  const merged: Record<number, string[]> = {};
  for (const table of tables) {
    for (const [status, codes] of Object.entries(table)) {
      const list = (merged[Number(status)] ??= []);
      for (const code of codes ?? []) if (!list.includes(code)) list.push(code);
    }
  }
  return merged;
}
