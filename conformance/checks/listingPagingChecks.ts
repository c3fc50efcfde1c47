import { CheckSkipped, ruleBroken, type ConformanceCheck } from '../check';
import { expectThat } from '../expectations';
import { listAllPages, listPage, requireApiKey } from '../listRequests';
import { shortId } from '../requestIds';
import { requireListedQuotes } from '../requireListedQuotes';
import { quotedRequestsOf } from '../quotedRequests';

/** A small page, so the run's few requests span several pages. */
const PAGE_SIZE = 2;

/** §4.3: `continuation` paging of `GET /requests/v3`. */
export const listingPagingChecks: readonly ConformanceCheck[] = [
  {
    id: 'listing.continuation-paging',
    section: '4.3',
    title: 'continuation pages of limit=2 hold at most 2 records each and give every record of the listing once, in its order',
    mode: 'read-only',
    async run({ http, target }) {
      requireApiKey(http);
      const set = await quotedRequestsOf(target);
      await requireListedQuotes(http, set);
      const whole = await listPage(http, { recipient: set.recipient, limit: 50 });
      const expected = whole.page.requests.map((record) => record.id.toLowerCase());
      if (expected.length <= PAGE_SIZE) throw new CheckSkipped(`only ${expected.length} records are listed for this run's recipient: not enough to span pages of ${PAGE_SIZE}`);

      const { pages, exchanges } = await listAllPages(http, { recipient: set.recipient, limit: PAGE_SIZE }, expected.length + 1, '§4.3: continuation is passed back for the next page, and the last page has none');
      const seen: string[] = [];
      for (const [index, page] of pages.entries()) {
        const exchange = exchanges[index]!;
        const size = page.requests.length;
        expectThat(size <= PAGE_SIZE, '§4.3: limit is the page size: a page holds at most limit records', `page ${index + 1} holds ${size} records at limit=${PAGE_SIZE}`, exchange);
        if (index === 0) expectThat(size === PAGE_SIZE, '§4.3: limit is the page size: the first page of a longer listing holds limit records', `the first page holds ${size} of ${expected.length} records`, exchange);
        for (const record of page.requests) {
          const id = record.id.toLowerCase();
          if (seen.includes(id)) ruleBroken('§4.3: continuation pages never repeat a record', `record ${shortId(record.id)} is on page ${index + 1} and on an earlier page`, exchange);
          seen.push(id);
        }
      }
      const missing = expected.filter((id) => !seen.includes(id));
      const extra = seen.filter((id) => !expected.includes(id));
      expectThat(
        missing.length === 0 && extra.length === 0,
        '§4.3: following continuation gives every record of the listing, none left out',
        `missing from the pages: [${missing.map(shortId).join(', ')}]; on the pages but not in the listing: [${extra.map(shortId).join(', ')}]`,
        exchanges.at(-1),
      );
      expectThat(
        seen.every((id, i) => id === expected[i]),
        '§4.3: the pages follow the listing\'s sort order',
        `pages: [${seen.map(shortId).join(', ')}]; one page of 50: [${expected.map(shortId).join(', ')}]`,
        exchanges.at(-1),
      );
    },
  },
];
