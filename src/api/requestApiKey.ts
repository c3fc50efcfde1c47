import type { IncomingHttpHeaders } from 'node:http';
import type { Request } from 'express';
import { InvalidApiKeyError, MissingApiKeyError } from '../errors/authErrors';
import type { ApiKey, ApiKeyStore } from '../store/ApiKeyStore';

/** The `x-api-key` header's value, or undefined when absent or empty (express's `req.header`, or node's headers as they came). */
export function apiKeyHeader(req: Request | { headers: IncomingHttpHeaders }): string | undefined {
  // node joins a repeated header into one string (only set-cookie stays an array): what `req.header` returns
  const value = req.headers['x-api-key'] as string | undefined;
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** SPEC §5: the key a request must carry (`GET /requests/v3`); 401 with an errorCode otherwise. */
export function requireApiKey(req: Request, keys: ApiKeyStore): ApiKey {
  const value = apiKeyHeader(req);
  if (value === undefined) throw new MissingApiKeyError();
  const key = keys.get(value);
  if (!key) throw new InvalidApiKeyError();
  return key;
}

/**
 * The key a quote is attributed to. Quote, status and chains routes need no key (SPEC §5.3,
 * and the official SDK sends none); a known key attributes the request to it, an unknown one
 * is ignored rather than refused, as a client may carry a key of the real service.
 */
export function optionalApiKey(req: Request | { headers: IncomingHttpHeaders }, keys: ApiKeyStore): ApiKey | undefined {
  const value = apiKeyHeader(req);
  return value === undefined ? undefined : keys.get(value);
}

/**
 * The key a gasless call is attributed to (its sponsor balance): the one presented (an unknown one
 * is 401), else the default key — the official SDK never sends `x-api-key` to a URL other than the
 * service's own (SDK-FACTS), so a local `executeGaslessBatch` arrives without one.
 */
export function apiKeyOrDefault(req: Request, keys: ApiKeyStore): ApiKey {
  if (apiKeyHeader(req) !== undefined) return requireApiKey(req, keys);
  const fallback = keys.list().find((key) => key.isDefault);
  if (!fallback) throw new MissingApiKeyError();
  return fallback;
}
