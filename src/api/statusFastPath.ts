import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildStatusResponse } from '../domain/request/statusResponse';
import { StatusBodyCache, type StatusBody, type StoredRequestRows } from './statusBodyCache';
import { hasBody } from './requireJsonBody';

/** `GET /intents/status/v3?requestId=<32-byte hex>` and nothing else in the URL. */
const PLAIN_STATUS_URL = /^\/intents\/status\/v3\?requestId=(0x[0-9a-fA-F]{64})$/;

/** The status look-up's JSON body for a stored request (SPEC §2.4), or undefined when none is stored. */
export type StatusV3Body = (requestId: string) => StatusBody | undefined;

/** `GET /intents/status/v3`'s body, built once per version of the record (`StatusBodyCache`). */
export function statusV3Bodies(requests: StoredRequestRows): StatusV3Body {
  const bodies = new StatusBodyCache(requests, buildStatusResponse);
  return (requestId) => bodies.bodyFor(requestId);
}

/**
 * The look-up clients poll in a loop, answered before express sees the request: a plain
 * `GET /intents/status/v3?requestId=…` of a stored request gets the bytes and headers `res.json`
 * would send (Content-Type, then Content-Length), with none of express's per-request work (its
 * request and response prototypes, the router's walk, URL parsing). It answers true when it
 * answered. Every other shape — another version, a second parameter, a malformed or unknown id,
 * HEAD, a request with a body (415 there) — it leaves to express (false), whose status routes
 * answer it (and its errors) as before.
 */
export function answerPlainStatusLookup(bodyOf: StatusV3Body): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== 'GET' || hasBody(req.headers)) return false;
    const match = PLAIN_STATUS_URL.exec(req.url ?? '');
    const body = match ? bodyOf(match[1]!) : undefined;
    if (body === undefined) return false;
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.byteLength });
    res.end(body.text);
    return true;
  };
}
