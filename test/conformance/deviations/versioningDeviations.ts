import type { Deviation } from '../deviationProxy';

const DEPRECATED_LISTINGS = new Set(['/requests/v2', '/requests']);

export const versioningDeviations: readonly Deviation[] = [
  {
    name: 'the older POST /quote is gone (404)',
    section: '9',
    only: ['versioning.older-quote-path'],
    response: (request) => (request.path === '/quote' ? { status: 404, body: { errorCode: 'ROUTE_NOT_FOUND', message: 'no route' } } : undefined),
  },
  {
    name: 'the older GET /intents/status is gone (404)',
    section: '9',
    only: ['versioning.older-status-path'],
    response: (request) => (request.path === '/intents/status' ? { status: 404, body: { errorCode: 'ROUTE_NOT_FOUND', message: 'no route' } } : undefined),
  },
  {
    name: 'GET /requests/v2 answers 500',
    section: '9',
    only: ['versioning.deprecated-listings'],
    response: (request) => (request.path === '/requests/v2' ? { status: 500, body: { errorCode: 'INTERNAL_ERROR', message: 'boom' } } : undefined),
  },
  {
    // before 2026-11-24 a working listing turns into a refusal, after it a refusal into a listing
    name: 'the deprecated listings answer the other way round from their retirement date',
    section: '9',
    only: ['versioning.deprecated-listings'],
    response: (request, response) => {
      if (!DEPRECATED_LISTINGS.has(request.path)) return undefined;
      return response.status === 200 ? { status: 410, body: { errorCode: 'ENDPOINT_RETIRED', message: 'retired' } } : { status: 200, body: { requests: [] } };
    },
  },
  {
    name: 'GET /requests/v2 names a Sunset in 2027',
    section: '9',
    only: ['versioning.deprecated-listings'],
    response: (request) => (request.path === '/requests/v2' ? { headers: { sunset: 'Wed, 24 Nov 2027 00:00:00 GMT' } } : undefined),
  },
];
