import { CheckSkipped, type ConformanceCheck } from '../check';
import { expectShape, expectThat } from '../expectations';
import { getListing, listPage, requireApiKey } from '../listRequests';
import { sameId, shortId } from '../requestIds';
import { requireListedQuotes } from '../requireListedQuotes';
import { quotedRequestsOf } from '../quotedRequests';
import { listingPageSchema, requestRecordSchema } from '../schemas/requestRecordSchema';

/** §2.3: the records `GET /requests/v3` returns. */
export const listingRecordChecks: readonly ConformanceCheck[] = [
  {
    id: 'listing.record-fields',
    section: '2.3',
    title: 'every record listed has every §2.3 field (null where there is no value), typed as the tables say',
    mode: 'read-only',
    async run({ http, target }) {
      requireApiKey(http);
      // the run's own quotes first (when the target lists unpaid requests), then whatever the listing holds
      const set = await quotedRequestsOf(target).catch(() => undefined);
      const queries = [...(set ? [{ recipient: set.recipient, limit: 50 }] : []), { limit: 50 }];
      let seen = 0;
      for (const query of queries) {
        const exchange = await getListing(http, query);
        const { requests } = expectShape(exchange, listingPageSchema, '§4.3: GET /requests/v3 answers an object with a requests array');
        for (const [index, record] of requests.entries()) {
          // each record on its own, so a failure names the record
          expectShape({ ...exchange, json: record }, requestRecordSchema, `§2.3: a request record has every field of the tables (record ${index} of the page, ${shortId(record.id)})`);
        }
        seen += requests.length;
      }
      if (seen === 0) throw new CheckSkipped('GET /requests/v3 lists no request: no record to judge');
    },
  },
  {
    id: 'listing.record-matches-quote',
    section: '2.3',
    title: 'the records of the run\'s quotes carry the quoted user, recipient and deposit address',
    mode: 'read-only',
    async run({ http, target }) {
      requireApiKey(http);
      const set = await quotedRequestsOf(target);
      await requireListedQuotes(http, set);
      for (const quoted of set.requests) {
        const { page, exchange } = await listPage(http, { id: quoted.requestId });
        const record = page.requests.find((candidate) => sameId(candidate.id, quoted.requestId));
        expectThat(record !== undefined, '§4.3: id finds the request with that requestId', `the ${quoted.label} (${shortId(quoted.requestId)}) is not listed`, exchange);
        const parsed = expectShape({ ...exchange, json: record }, requestRecordSchema, '§2.3: a request record has every field of the tables');
        const rule = `§2.3: a request record shows the request as it was quoted (${quoted.label})`;
        expectThat(sameId(parsed.user, quoted.user), rule, `user is ${parsed.user}, the quote's user was ${quoted.user}`, exchange);
        expectThat(sameId(parsed.recipient, quoted.recipient), rule, `recipient is ${parsed.recipient}, the quote's recipient was ${quoted.recipient}`, exchange);
        if (quoted.depositAddress === undefined) {
          expectThat(parsed.depositAddress === null, rule, 'depositAddress is set on a request quoted without useDepositAddress', exchange);
        } else {
          expectThat(parsed.depositAddress !== null && sameId(parsed.depositAddress.address, quoted.depositAddress), rule, `depositAddress.address is ${parsed.depositAddress?.address ?? 'null'}, the quote's step named ${quoted.depositAddress}`, exchange);
          // useDepositAddress without strict: an open address (§1.6: open or strict; strict needs refundTo)
          expectThat(parsed.depositAddress!.type === 'open', rule, `depositAddress.type is ${parsed.depositAddress!.type} for a quote without strict`, exchange);
        }
      }
    },
  },
];
