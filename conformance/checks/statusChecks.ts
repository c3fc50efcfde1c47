import { randomBytes } from 'node:crypto';
import type { CheckContext, ConformanceCheck } from '../check';
import { expectClientError } from '../clientErrors';
import { expectShape, expectStatus, expectThat } from '../expectations';
import type { Exchange } from '../http';
import { listPage, requireApiKey } from '../listRequests';
import { sameId, shortId } from '../requestIds';
import { requireListedQuotes } from '../requireListedQuotes';
import { quotedRequestsOf, type QuotedRequest } from '../quotedRequests';
import { failedStatusValues } from '../schemas/failReasonValues';
import { statusResponseSchema, type StatusResponse } from '../schemas/statusSchema';

/** 10^13 ms is the year 2286: a larger updatedAt is in a finer unit than milliseconds (the schema catches seconds). */
const LATEST_UNIX_MILLIS = 10_000_000_000_000;

const SHAPE_RULE = '§2.4: the status response has every field, typed as the table says (updatedAt in unix milliseconds)';

/** `GET /intents/status/v3?requestId=…` of a request the run quoted: 200 and the §2.4 shape. */
async function statusOf(http: CheckContext['http'], request: QuotedRequest): Promise<{ status: StatusResponse; exchange: Exchange }> {
  const exchange = await http.get('/intents/status/v3', { query: { requestId: request.requestId } });
  expectStatus(exchange, 200, `§4.2: GET /intents/status/v3 answers 200 for a request the service quoted (${request.label})`);
  return { status: expectShape(exchange, statusResponseSchema, SHAPE_RULE), exchange };
}

function isFailedStatus(status: string): boolean {
  return (failedStatusValues as readonly string[]).includes(status);
}

/** §2.4 and §4.2: the status lookup, for the requests the run created by quoting. */
export const statusChecks: readonly ConformanceCheck[] = [
  {
    id: 'status.fields',
    section: '2.4',
    title: 'the status of each quoted request has every §2.4 field with its type, updatedAt in unix ms, and the quoted chains',
    mode: 'read-only',
    async run({ http, target }) {
      const set = await quotedRequestsOf(target);
      for (const request of set.requests) {
        const { status, exchange } = await statusOf(http, request);
        expectThat(status.updatedAt < LATEST_UNIX_MILLIS, SHAPE_RULE, `updatedAt ${status.updatedAt} is after the year 2286 in milliseconds: a finer unit`, exchange);
        expectThat(
          status.originChainId === request.originChainId && status.destinationChainId === request.destinationChainId,
          '§2.4: originChainId and destinationChainId are those of the request',
          `the ${request.label} was quoted ${request.originChainId} → ${request.destinationChainId}; the status says ${status.originChainId} → ${status.destinationChainId}`,
          exchange,
        );
      }
    },
  },
  {
    id: 'status.reasons',
    section: '2.4',
    title: 'failReason is N/A on non-failure statuses (a reason on failure, fallback and refund); refundFailReason defaults to N/A',
    mode: 'read-only',
    async run({ http, target }) {
      const set = await quotedRequestsOf(target);
      for (const request of set.requests) {
        const { status, exchange } = await statusOf(http, request);
        if (isFailedStatus(status.status)) {
          expectThat(status.failReason !== 'N/A', '§2.4: on failure, fallback and refund failReason is the recorded reason or UNKNOWN', `status ${status.status} with failReason N/A`, exchange);
        } else {
          expectThat(status.failReason === 'N/A', '§2.4: failReason is N/A on non-failure statuses', `status ${status.status} with failReason ${status.failReason}`, exchange);
          // nothing was refunded, so nothing can have failed to be: the default
          expectThat(status.refundFailReason === 'N/A', '§2.4: refundFailReason defaults to N/A', `status ${status.status} with refundFailReason ${status.refundFailReason}`, exchange);
        }
      }
    },
  },
  {
    id: 'status.agrees-with-listing',
    section: '2.4',
    title: 'the status lookup and the request record of GET /requests/v3 give a quoted request the same status',
    mode: 'read-only',
    async run({ http, target }) {
      requireApiKey(http);
      const set = await quotedRequestsOf(target);
      await requireListedQuotes(http, set);
      for (const request of set.requests) {
        const { status, exchange } = await statusOf(http, request);
        const { page, exchange: listed } = await listPage(http, { id: request.requestId });
        const record = page.requests.find((candidate) => sameId(candidate.id, request.requestId));
        if (!record) continue;
        expectThat(
          record.status === status.status,
          '§3: statuses are shared by the status lookup and the request listing: both report the same status of a request',
          `the status lookup says ${status.status} (${exchange.url}); the record of ${shortId(request.requestId)} says ${String(record.status)}`,
          listed,
        );
      }
    },
  },
  {
    id: 'status.unknown-request',
    section: '4.2',
    title: 'a requestId the service never issued gets a 4xx with an errorCode, never a made-up status or a 5xx',
    mode: 'read-only',
    async run({ http }) {
      // the SPEC does not name the answer; the simulator's docs/endpoints.md documents 404 REQUEST_NOT_FOUND,
      // and any 4xx with the §7 error body is accepted
      const exchange = await http.get('/intents/status/v3', { query: { requestId: `0x${randomBytes(32).toString('hex')}` } });
      expectClientError(exchange, '§4.2: the status lookup of a requestId the service never issued is refused with a 4xx and an errorCode');
    },
  },
  {
    id: 'status.missing-request-id',
    section: '4.2',
    title: 'a status lookup without requestId gets a 4xx with an errorCode',
    mode: 'read-only',
    async run({ http }) {
      const exchange = await http.get('/intents/status/v3');
      expectClientError(exchange, '§4.2: the status lookup takes a requestId: a lookup without one is refused with a 4xx and an errorCode');
    },
  },
];
