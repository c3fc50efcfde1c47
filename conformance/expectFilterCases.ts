import type { CheckContext } from './check';
import { expectThat } from './expectations';
import { listPage } from './listRequests';
import type { QuotedRequest, QuotedRequestSet } from './quotedRequests';

/** One filtered listing and which of the run's requests it must return. */
export interface FilterCase {
  /** The SPEC rule, in words, that this listing shows. */
  rule: string;
  query: Record<string, string | number | boolean>;
  /** The run's requests the listing must return; every other one of them it must not. */
  expect: (request: QuotedRequest) => boolean;
  /**
   * The query singles out this run's requests (by their recipient, user, id…), so a record that
   * is not one of them breaks the rule too.
   */
  onlyOurs: boolean;
}

function labels(requests: readonly QuotedRequest[]): string {
  return requests.length === 0 ? 'none' : requests.map((request) => request.label).join('; ');
}

/**
 * Lists each case (one page of 50: the run's requests fit) and compares what came back with what
 * the case expects of the run's requests: each expected one found, no other one of them, and,
 * for a case that singles them out, nothing else.
 */
export async function expectFilterCases(http: CheckContext['http'], set: QuotedRequestSet, cases: readonly FilterCase[]): Promise<void> {
  const byId = new Map(set.requests.map((request) => [request.requestId.toLowerCase(), request]));
  for (const filterCase of cases) {
    const { page, exchange } = await listPage(http, { limit: 50, ...filterCase.query });
    const returned = page.requests.map((record) => record.id.toLowerCase());
    const expected = set.requests.filter(filterCase.expect);
    const missing = expected.filter((request) => !returned.includes(request.requestId.toLowerCase()));
    const unexpected = set.requests.filter((request) => !filterCase.expect(request) && returned.includes(request.requestId.toLowerCase()));
    const foreign = filterCase.onlyOurs ? returned.filter((id) => !byId.has(id)).length : 0;
    expectThat(
      missing.length === 0 && unexpected.length === 0 && foreign === 0,
      filterCase.rule,
      [
        `expected: ${labels(expected)}`,
        ...(missing.length ? [`missing: ${labels(missing)}`] : []),
        ...(unexpected.length ? [`returned though the filter excludes them: ${labels(unexpected)}`] : []),
        ...(foreign ? [`and ${foreign} records that are not this run's`] : []),
      ].join('; '),
      exchange,
    );
  }
}
