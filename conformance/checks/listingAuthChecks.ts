import { randomBytes } from 'node:crypto';
import type { ConformanceCheck } from '../check';
import { expectClientError } from '../clientErrors';
import { expectShape, expectStatus, expectThat } from '../expectations';
import { getListing, listPage, requireApiKey } from '../listRequests';
import { sameId, shortId } from '../requestIds';
import { requireListedQuotes } from '../requireListedQuotes';
import { quotedRequestsOf } from '../quotedRequests';
import { listingPageSchema, requestRecordSchema } from '../schemas/requestRecordSchema';

/** A key no deployment issued: random, so it cannot collide with a real one. */
function unknownApiKey(): string {
  return `conformance-unknown-${randomBytes(12).toString('hex')}`;
}

/** Deep equality of two JSON values. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  return aKeys.length === Object.keys(b).length && aKeys.every((key) => key in b && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** §5 (and §4.3): the API key of `GET /requests/v3`. */
export const listingAuthChecks: readonly ConformanceCheck[] = [
  {
    id: 'listing.key-missing',
    section: '5',
    title: 'GET /requests/v3 answers a valid x-api-key, and refuses a request without one with a 4xx and an errorCode',
    mode: 'read-only',
    async run({ http }) {
      if (http.apiKey) {
        const keyed = await getListing(http, { limit: 1 });
        expectStatus(keyed, 200, '§5.2: GET /requests/v3 with the x-api-key header answers 200');
        expectShape(keyed, listingPageSchema, '§4.3: GET /requests/v3 answers an object with a requests array');
      }
      const keyless = await getListing(http, { limit: 1 }, { withApiKey: false });
      expectClientError(keyless, '§5.2: GET /requests/v3 requires the x-api-key header: a request without it is refused with a 4xx');
    },
  },
  {
    id: 'listing.key-unknown',
    section: '5',
    title: 'GET /requests/v3 refuses a key it never issued with a 4xx and an errorCode',
    mode: 'read-only',
    async run({ http }) {
      if (http.apiKey) {
        const keyed = await getListing(http, { limit: 1 });
        expectStatus(keyed, 200, '§5.2: GET /requests/v3 with the x-api-key header answers 200');
      }
      const unknown = await getListing(http, { limit: 1 }, { withApiKey: false, headers: { 'x-api-key': unknownApiKey() } });
      expectClientError(unknown, '§5.1: API keys authenticate requests: GET /requests/v3 with a key the service never issued is refused with a 4xx');
    },
  },
  {
    id: 'listing.authenticated-data',
    section: '5',
    title: 'includeAuthenticatedData=true only adds fields, and only to requests made with the key: the same records, in the same order, each field as without it',
    mode: 'read-only',
    async run({ http, target }) {
      requireApiKey(http);
      const set = await quotedRequestsOf(target);
      await requireListedQuotes(http, set);
      const rule = '§5.5: includeAuthenticatedData=true adds fields for the integrator\'s own requests and changes nothing else';
      const plain = await listPage(http, { recipient: set.recipient, limit: 50 });
      const withData = await listPage(http, { recipient: set.recipient, limit: 50, includeAuthenticatedData: true });
      const plainIds = plain.page.requests.map((record) => record.id);
      const dataIds = withData.page.requests.map((record) => record.id);
      expectThat(
        plainIds.length === dataIds.length && plainIds.every((id, i) => sameId(id, dataIds[i]!)),
        rule,
        `without it: [${plainIds.map(shortId).join(', ')}]; with it: [${dataIds.map(shortId).join(', ')}]`,
        withData.exchange,
      );
      for (const [i, record] of withData.page.requests.entries()) {
        expectShape({ ...withData.exchange, json: record }, requestRecordSchema, '§2.3: a record with authenticated data is still a full request record');
        const before = plain.page.requests[i]! as Record<string, unknown>;
        const after = record as Record<string, unknown>;
        const beforeData = (before.data ?? {}) as Record<string, unknown>;
        const afterData = (after.data ?? {}) as Record<string, unknown>;
        const changed = [
          ...Object.keys(before).filter((key) => key !== 'data' && !sameJson(before[key], after[key])),
          ...Object.keys(beforeData).filter((key) => !sameJson(beforeData[key], afterData[key])).map((key) => `data.${key}`),
        ];
        expectThat(changed.length === 0, rule, `record ${shortId(record.id)} changed ${changed.join(', ')}`, withData.exchange);
        // a request quoted without the key is not the integrator's own: nothing is added to it
        if (set.requests.some((request) => !request.withApiKey && sameId(request.requestId, record.id))) {
          const added = [...Object.keys(after).filter((key) => !(key in before)), ...Object.keys(afterData).filter((key) => !(key in beforeData)).map((key) => `data.${key}`)];
          expectThat(
            added.length === 0,
            '§5.5: includeAuthenticatedData adds fields only to the authenticating integrator\'s own requests',
            `record ${shortId(record.id)}, quoted without the key, gained ${added.join(', ')}`,
            withData.exchange,
          );
        }
      }
    },
  },
];
