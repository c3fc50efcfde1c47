import { Router, type Request, type Response } from 'express';
import type { VirtualClock } from '../../clock/VirtualClock';
import { buildLegacyRequestRecordView } from '../../domain/listing/legacyRequestRecordView';
import { buildRequestRecordView } from '../../domain/request/requestRecordView';
import { EndpointRetiredError } from '../../errors/listingErrors';
import type { ApiKeyStore } from '../../store/ApiKeyStore';
import type { RequestListingStore } from '../../store/RequestListingStore';
import { listRequestPage } from '../../listing/listRequestPage';
import type { RequestStore } from '../../store/RequestStore';
import { encodeListingCursor } from '../listing/listingCursor';
import { parseListingQuery, type ListingDialect, type ListingQuery } from '../listing/parseListingQuery';
import { enforceRateLimit, RateLimiters } from '../rateLimiter';
import { optionalApiKey, requireApiKey } from '../requestApiKey';

export interface RequestListingRouteDeps {
  requests: RequestStore;
  /** Built at start-up by the simulator root. */
  listing: RequestListingStore;
  apiKeys: ApiKeyStore;
  clock: VirtualClock;
  /** `GET /requests/v3` requests per second per key (SPEC §8: `LISTING_RATE_LIMITS.v3`; `--listing-rate`). */
  listingRatePerSecond?: number;
  /** Where the limiters are made (the root hands its own, so a world snapshot holds their counts). */
  rateLimiters?: RateLimiters;
}

/** SPEC §8 rates, per second. */
export const LISTING_RATE_LIMITS = { v3: 20, deprecated: 10 } as const;

/** SPEC §9: `/requests/v2` (and `/requests`) deprecated from 2026-07-22, retired on 2026-11-24. */
export const DEPRECATED_LISTING = {
  deprecatedAt: Date.UTC(2026, 6, 22),
  retiredAt: Date.UTC(2026, 10, 24),
  successor: '/requests/v3',
} as const;

/** One page and its opaque continuation cursor (absent on the last page). */
function listPage(deps: RequestListingRouteDeps, query: ListingQuery) {
  const page = listRequestPage(deps, query);
  return { records: page.records, total: page.total, continuation: page.next ? encodeListingCursor(query.sortBy, query.direction, page.next) : undefined };
}

/** RFC 9745 `Deprecation` and RFC 8594 `Sunset`, with the successor as a link. */
function setDeprecationHeaders(res: Response): void {
  res.set('Deprecation', `@${Math.floor(DEPRECATED_LISTING.deprecatedAt / 1000)}`);
  res.set('Sunset', new Date(DEPRECATED_LISTING.retiredAt).toUTCString());
  res.set('Link', `<${DEPRECATED_LISTING.successor}>; rel="successor-version"`);
}

/**
 * SPEC §4.3 `GET /requests/v3` (x-api-key required, 20 rps per key) and the deprecated
 * `GET /requests` and `GET /requests/v2` (10 rps per key, or per client address without one;
 * 410 from their retirement date on the simulator's clock).
 */
export function requestListingRoutes(deps: RequestListingRouteDeps): Router {
  const router = Router();
  const rateLimiters = deps.rateLimiters ?? new RateLimiters();
  const v3Limiter = rateLimiters.create({ clock: deps.clock, limit: deps.listingRatePerSecond ?? LISTING_RATE_LIMITS.v3, windowMs: 1000, name: 'requests-v3' });
  const deprecatedLimiter = rateLimiters.create({ clock: deps.clock, limit: LISTING_RATE_LIMITS.deprecated, windowMs: 1000, name: 'requests-deprecated' });

  router.get('/requests/v3', (req, res) => {
    const key = requireApiKey(req, deps.apiKeys);
    enforceRateLimit(v3Limiter, key.key, 'this API key', res);
    const query = parseListingQuery(req.query, 'v3');
    const page = listPage(deps, query);
    res.json({
      requests: page.records.map((record) =>
        buildRequestRecordView(record, { includeAuthenticatedData: query.includeAuthenticatedData && record.apiKey === key.key }),
      ),
      ...(page.continuation ? { continuation: page.continuation } : {}),
      ...(page.total === undefined ? {} : { total: page.total }),
    });
  });

  const deprecatedRoute = (path: string, dialect: Exclude<ListingDialect, 'v3'>) => (req: Request, res: Response) => {
    setDeprecationHeaders(res);
    if (deps.clock.now() >= DEPRECATED_LISTING.retiredAt) {
      throw new EndpointRetiredError(path, new Date(DEPRECATED_LISTING.retiredAt).toISOString().slice(0, 10), `GET ${DEPRECATED_LISTING.successor} with an x-api-key`);
    }
    const key = optionalApiKey(req, deps.apiKeys);
    enforceRateLimit(deprecatedLimiter, key ? `key:${key.key}` : `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`, key ? 'this API key' : 'this client address', res);
    const query = parseListingQuery(req.query, dialect);
    const page = listPage(deps, query);
    res.json({
      requests: page.records.map((record) =>
        buildLegacyRequestRecordView(record, dialect === 'v1' ? 1 : 2, {
          includeAuthenticatedData: query.includeAuthenticatedData && key !== undefined && record.apiKey === key.key,
        }),
      ),
      ...(page.continuation ? { continuation: page.continuation } : {}),
    });
  };
  router.get('/requests/v2', deprecatedRoute('/requests/v2', 'v2'));
  router.get('/requests', deprecatedRoute('/requests', 'v1'));
  return router;
}
