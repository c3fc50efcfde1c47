import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import { z } from 'zod';
import type { ConformanceCheck } from '../check';
import { expectClientError } from '../clientErrors';
import { expectNoServerError, expectShape, expectStatus, expectThat } from '../expectations';
import type { Exchange } from '../http';
import { quotedRequestsOf } from '../quotedRequests';

/** SPEC §9: `GET /requests/v2` is deprecated from 2026-07-22 and retired on 2026-11-24 (UTC). */
const DEPRECATED_FROM = Date.UTC(2026, 6, 22);
const RETIRED_ON = Date.UTC(2026, 10, 24);

/** The target's clock as its answer states it (`Date`), else this machine's. */
function answeredAt(exchange: Exchange): number {
  const date = Date.parse(exchange.responseHeaders.date ?? '');
  return Number.isFinite(date) ? date : Date.now();
}

/** An RFC 9745 `Deprecation` (`@<unix seconds>`) or an HTTP date, as unix ms. */
function headerTime(value: string): number {
  return value.startsWith('@') ? Number(value.slice(1)) * 1000 : Date.parse(value);
}

function randomAddress(): string {
  return getAddress(`0x${randomBytes(20).toString('hex')}`);
}

const listingAnswer = z.object({ requests: z.array(z.unknown()) });

/**
 * The deprecated listings. SPEC §9 dates `/requests/v2`: it keeps working until it is retired on
 * 2026-11-24. So the check reads the date from the answer's `Date` header (the target's clock)
 * and accepts a working listing before that day and only a refusal (a 4xx with an errorCode; the
 * simulator answers 410 ENDPOINT_RETIRED) from that day on. `GET /requests` is deprecated too
 * (§4.7) and §9 gives it no date of its own; the simulator's docs/endpoints.md retires it with `/requests/v2`,
 * and it is judged by the same dates: the older of the two cannot outlive the newer one.
 * The SPEC names no deprecation headers; where `Deprecation` or `Sunset` is sent, it must name
 * §9's dates.
 */
function expectDeprecatedListing(exchange: Exchange, path: string): void {
  expectNoServerError(exchange, `§9: ${path} answers, never with a 5xx`);
  const now = answeredAt(exchange);
  if (now < RETIRED_ON) {
    expectStatus(exchange, 200, `§9: ${path} is deprecated and keeps working until its retirement on 2026-11-24`);
    expectShape(exchange, listingAnswer, `§9: ${path} still lists requests until 2026-11-24`);
  } else {
    expectClientError(exchange, `§9: ${path} is retired on 2026-11-24: from then on it is refused with a 4xx and an errorCode`);
  }
  const sunset = exchange.responseHeaders.sunset;
  if (sunset !== undefined) expectThat(headerTime(sunset) === RETIRED_ON, `§9: ${path} is retired on 2026-11-24 (its Sunset header says when)`, `Sunset: ${sunset}`, exchange);
  const deprecation = exchange.responseHeaders.deprecation;
  if (deprecation !== undefined) expectThat(headerTime(deprecation) === DEPRECATED_FROM, `§9: ${path} is deprecated from 2026-07-22 (its Deprecation header says when)`, `Deprecation: ${deprecation}`, exchange);
}

/** §9: versions are in the path; the older paths still answer. */
export const versioningChecks: readonly ConformanceCheck[] = [
  {
    id: 'versioning.older-quote-path',
    section: '9',
    title: 'the older POST /quote exists: a quote body gets an answer, not a 404 or a 5xx',
    mode: 'read-only',
    async run({ http, target }) {
      const set = await quotedRequestsOf(target);
      const quoted = set.requests[0]!;
      // a user and recipient of its own, so the listing checks' recipient keeps only their quotes
      const body = {
        user: randomAddress(),
        originChainId: quoted.originChainId,
        destinationChainId: quoted.destinationChainId,
        originCurrency: quoted.originCurrency,
        destinationCurrency: quoted.destinationCurrency,
        amount: quoted.amount.toString(),
        tradeType: 'EXACT_INPUT',
        recipient: randomAddress(),
      };
      const exchange = await http.post('/quote', body);
      expectNoServerError(exchange, '§9: the older POST /quote answers a quote body, never with a 5xx');
      expectThat(exchange.status !== 404, '§9: the older path POST /quote exists', 'HTTP 404: no such route', exchange);
    },
  },
  {
    id: 'versioning.older-status-path',
    section: '9',
    title: 'the older GET /intents/status answers the status of a quoted request',
    mode: 'read-only',
    async run({ http, target }) {
      const set = await quotedRequestsOf(target);
      const exchange = await http.get('/intents/status', { query: { requestId: set.requests[0]!.requestId } });
      expectStatus(exchange, 200, '§9: the older path GET /intents/status exists and answers for a request the service quoted');
      expectShape(exchange, z.object({ status: z.string() }), '§9: the older GET /intents/status answers a status');
    },
  },
  {
    id: 'versioning.deprecated-listings',
    section: '9',
    title: 'GET /requests/v2 and GET /requests list requests until 2026-11-24 and are refused with a 4xx from then on',
    mode: 'read-only',
    async run({ http }) {
      for (const path of ['/requests/v2', '/requests']) {
        const exchange = await http.get(path, { query: { limit: 1 }, withApiKey: true });
        expectDeprecatedListing(exchange, path);
      }
    },
  },
];
