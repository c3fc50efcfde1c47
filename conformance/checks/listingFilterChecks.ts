import { randomBytes } from 'node:crypto';
import { CheckSkipped, type CheckContext, type ConformanceCheck } from '../check';
import { expectFilterCases, type FilterCase } from '../expectFilterCases';
import { listPage, requireApiKey } from '../listRequests';
import { requireListedQuotes } from '../requireListedQuotes';
import { quotedRequestsOf, type QuotedRequest, type QuotedRequestSet } from '../quotedRequests';

/*
 * §4.3: each filter of GET /requests/v3 finds the run's requests it should and none it should not.
 * The run's requests are unpaid quotes (read-only mode pays nothing), so filters on what only a
 * paid request has (deposit, fill and refund hashes, fail reasons, app fees) are checked to
 * exclude them; `startBlock`/`endBlock` and `fillTimeMin`/`fillTimeMax` are not checked: whether a
 * request with no chain entry and no fill is inside or outside such bounds, the SPEC does not say.
 */

const all = (): boolean => true;
const none = (): boolean => false;

function randomHash(): string {
  return `0x${randomBytes(32).toString('hex')}`;
}

/** `eTh` for `EtH`: a value only a case-insensitive match finds. */
function swapCase(text: string): string {
  return [...text].map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('');
}

function sameText(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** A check of some filters: quote the run's requests, make sure the target lists them, then each case. */
function filterCheck(id: string, title: string, casesOf: (set: QuotedRequestSet, context: CheckContext) => Promise<FilterCase[]> | FilterCase[]): ConformanceCheck {
  return {
    id,
    section: '4.3',
    title,
    mode: 'read-only',
    async run(context) {
      requireApiKey(context.http);
      const set = await quotedRequestsOf(context.target);
      await requireListedQuotes(context.http, set);
      await expectFilterCases(context.http, set, await casesOf(set, context));
    },
  };
}

/** The statuses the listing gives the run's requests (status filters are judged against them). */
async function listedStatuses(http: CheckContext['http'], set: QuotedRequestSet): Promise<Map<string, string | undefined>> {
  const { page } = await listPage(http, { recipient: set.recipient, limit: 50 });
  return new Map(page.requests.map((record) => [record.id.toLowerCase(), record.status]));
}

/** A USD amount strictly between two of the run's quoted inputs, so bound inclusiveness never matters. */
function usdBetween(requests: readonly QuotedRequest[]): number | undefined {
  const values = [...new Set(requests.map((request) => request.amountInUsd))].sort((x, y) => (x ?? 0) - (y ?? 0));
  if (values.some((value) => value === undefined)) return undefined;
  for (let i = values.length - 1; i > 0; i -= 1) {
    const low = values[i - 1]!;
    const high = values[i]!;
    if (high - low > high * 0.05) return (low + high) / 2;
  }
  return undefined;
}

export const listingFilterChecks: readonly ConformanceCheck[] = [
  filterCheck('listing.filter-ids', 'id, term, orderId, depositAddress and includeChildRequests find exactly the request they name', (set): FilterCase[] => {
    const [first, second] = set.requests as [QuotedRequest, QuotedRequest];
    const withOrder = set.requests.find((request) => request.orderId !== undefined);
    const withAddress = set.requests.find((request) => request.depositAddress !== undefined);
    return [
      { rule: '§4.3: id matches the request with that requestId', query: { id: first.requestId }, expect: (r) => r === first, onlyOurs: true },
      { rule: '§4.3: term searches request ids', query: { term: second.requestId }, expect: (r) => r === second, onlyOurs: true },
      { rule: '§4.3: includeChildRequests=true with id returns the request and its children (a fresh quote has none)', query: { id: second.requestId, includeChildRequests: true }, expect: (r) => r === second, onlyOurs: true },
      { rule: '§4.3: includeChildRequests=false with id returns only the exact match', query: { id: second.requestId, includeChildRequests: false }, expect: (r) => r === second, onlyOurs: true },
      ...(withOrder ? [{ rule: '§4.3: orderId matches the request of that protocol order', query: { orderId: withOrder.orderId! }, expect: (r: QuotedRequest) => r.orderId === withOrder.orderId, onlyOurs: true }] : []),
      ...(withAddress
        ? [
            { rule: '§4.3: depositAddress matches the request paid through that address', query: { depositAddress: withAddress.depositAddress! }, expect: (r: QuotedRequest) => r === withAddress, onlyOurs: true },
            { rule: '§4.3: term searches deposit addresses', query: { term: withAddress.depositAddress! }, expect: (r: QuotedRequest) => r === withAddress, onlyOurs: true },
          ]
        : []),
    ];
  }),

  filterCheck('listing.filter-parties', 'user, recipient, term (a wallet) and apiKey find the requests of that user, recipient and key', (set, { http }): FilterCase[] => {
    const otherKey = `conformance-unknown-${randomBytes(12).toString('hex')}`;
    return [
      // §4.3 says `user` "matches sender or deposit-address depositor"; §4.1 calls the quote's
      // `user` "the address of the sender", so an unpaid quote is found by its user.
      { rule: '§4.3: user matches the requests of that user', query: { user: set.user }, expect: all, onlyOurs: true },
      { rule: '§4.3: recipient matches the requests paying that recipient', query: { recipient: set.recipient }, expect: all, onlyOurs: true },
      { rule: '§4.3: term searches wallets (the user\'s)', query: { term: set.user }, expect: all, onlyOurs: true },
      // §5.1: keys authenticate requests, so a quote sent with the run's key is that key's request.
      { rule: '§4.3: apiKey matches the requests made with that key', query: { recipient: set.recipient, apiKey: http.apiKey! }, expect: (r) => r.withApiKey, onlyOurs: true },
      { rule: '§4.3: apiKey takes a comma-separated list and matches any of its keys', query: { recipient: set.recipient, apiKey: `${otherKey},${http.apiKey!}` }, expect: (r) => r.withApiKey, onlyOurs: true },
      { rule: '§4.3: apiKey matches only requests made with one of the listed keys', query: { recipient: set.recipient, apiKey: otherKey }, expect: none, onlyOurs: true },
    ];
  }),

  filterCheck('listing.filter-chains', 'originChainId, destinationChainId, chainId (either direction, overridden by the other two), currencyInChainId and currencyOutChainId', (set): FilterCase[] => {
    const { a, b, c } = set.chains;
    const scoped = (query: FilterCase['query']) => ({ recipient: set.recipient, ...query });
    return [
      { rule: '§4.3: originChainId matches the requests from that chain', query: scoped({ originChainId: a.id }), expect: (r) => r.originChainId === a.id, onlyOurs: true },
      { rule: '§4.3: originChainId matches the requests from that chain', query: scoped({ originChainId: b.id }), expect: (r) => r.originChainId === b.id, onlyOurs: true },
      { rule: '§4.3: destinationChainId matches the requests to that chain', query: scoped({ destinationChainId: a.id }), expect: (r) => r.destinationChainId === a.id, onlyOurs: true },
      { rule: '§4.3: chainId matches the requests from or to that chain', query: scoped({ chainId: b.id }), expect: (r) => r.originChainId === b.id || r.destinationChainId === b.id, onlyOurs: true },
      ...(c ? [{ rule: '§4.3: chainId matches the requests from or to that chain', query: scoped({ chainId: c.id }), expect: (r: QuotedRequest) => r.originChainId === c.id || r.destinationChainId === c.id, onlyOurs: true }] : []),
      { rule: '§4.3: chainId is overridden by originChainId', query: scoped({ originChainId: a.id, chainId: (c ?? b).id }), expect: (r) => r.originChainId === a.id, onlyOurs: true },
      { rule: '§4.3: currencyInChainId matches the requests whose input currency is on that chain', query: scoped({ currencyInChainId: b.id }), expect: (r) => r.originChainId === b.id, onlyOurs: true },
      { rule: '§4.3: currencyOutChainId matches the requests whose output currency is on that chain', query: scoped({ currencyOutChainId: b.id }), expect: (r) => r.destinationChainId === b.id, onlyOurs: true },
    ];
  }),

  filterCheck('listing.filter-currencies', 'currencyInAddress, currencyOutAddress, and currencyInSymbol / currencyOutSymbol case-insensitively', (set): FilterCase[] => {
    const scoped = (query: FilterCase['query']) => ({ recipient: set.recipient, ...query });
    // the ERC-20 bridge, when the target took it, tells currencies apart; else every quote is native
    const sample = set.requests.find((request) => !sameText(request.originCurrency, set.requests[0]!.originCurrency)) ?? set.requests[0]!;
    return [
      { rule: '§4.3: currencyInAddress matches the requests with that input currency', query: scoped({ currencyInAddress: sample.originCurrency }), expect: (r) => sameText(r.originCurrency, sample.originCurrency), onlyOurs: true },
      { rule: '§4.3: currencyOutAddress matches the requests with that output currency', query: scoped({ currencyOutAddress: sample.destinationCurrency }), expect: (r) => sameText(r.destinationCurrency, sample.destinationCurrency), onlyOurs: true },
      { rule: '§4.3: currencyInSymbol matches case-insensitively, across chains', query: scoped({ currencyInSymbol: swapCase(sample.currencyInSymbol) }), expect: (r) => sameText(r.currencyInSymbol, sample.currencyInSymbol), onlyOurs: true },
      { rule: '§4.3: currencyOutSymbol matches case-insensitively, across chains', query: scoped({ currencyOutSymbol: swapCase(sample.currencyOutSymbol) }), expect: (r) => sameText(r.currencyOutSymbol, sample.currencyOutSymbol), onlyOurs: true },
    ];
  }),

  filterCheck('listing.filter-kinds', 'requestType (case-insensitive), status, features, failReason and refundFailReason', async (set, { http }): Promise<FilterCase[]> => {
    const statuses = await listedStatuses(http, set);
    const statusOf = (request: QuotedRequest) => statuses.get(request.requestId.toLowerCase());
    const withAddress = set.requests.find((request) => request.depositAddress !== undefined);
    const scoped = (query: FilterCase['query']) => ({ recipient: set.recipient, ...query });
    return [
      // every quote of the run is a same-symbol transfer between two chains: a Bridge (§1.2)
      { rule: '§4.3: requestType matches the request type case-insensitively', query: scoped({ requestType: swapCase('Bridge') }), expect: all, onlyOurs: true },
      { rule: '§4.3: requestType matches only requests of that type', query: scoped({ requestType: 'Wrap' }), expect: none, onlyOurs: true },
      { rule: '§4.3: status matches only requests in that status', query: scoped({ status: 'success' }), expect: (r) => statusOf(r) === 'success', onlyOurs: true },
      { rule: '§4.3: status matches only requests in that status', query: scoped({ status: 'refund' }), expect: (r) => statusOf(r) === 'refund', onlyOurs: true },
      ...(withAddress
        ? [{ rule: '§4.3: features matches the requests with one of the features (a deposit-address quote has deposit_address)', query: scoped({ features: 'deposit_address' }), expect: (r: QuotedRequest) => r === withAddress, onlyOurs: true }]
        : []),
      { rule: '§4.3: features matches only requests with at least one of the listed features', query: scoped({ features: 'fast_fill,gas_top_up' }), expect: none, onlyOurs: true },
      { rule: '§4.3: failReason matches only requests that failed with that reason', query: scoped({ failReason: 'SLIPPAGE' }), expect: none, onlyOurs: true },
      { rule: '§4.3: refundFailReason matches only requests whose refund failed with that reason', query: scoped({ refundFailReason: 'AMOUNT_TOO_LOW_TO_REFUND' }), expect: none, onlyOurs: true },
    ];
  }),

  filterCheck('listing.filter-bounds', 'amountUsdMin/Max on the quoted input, appFeesAmountUsdMin, startTimestamp/endTimestamp in unix seconds on createdAt', async (set, { http }): Promise<FilterCase[]> => {
    const scoped = (query: FilterCase['query']) => ({ recipient: set.recipient, ...query });
    const cases: FilterCase[] = [];
    const usd = usdBetween(set.requests);
    if (usd !== undefined) {
      const bound = usd.toFixed(2);
      cases.push(
        { rule: '§4.3: amountUsdMin bounds the quoted currencyIn.amountUsd from below', query: scoped({ amountUsdMin: bound }), expect: (r) => r.amountInUsd! > usd, onlyOurs: true },
        { rule: '§4.3: amountUsdMax bounds the quoted currencyIn.amountUsd from above', query: scoped({ amountUsdMax: bound }), expect: (r) => r.amountInUsd! < usd, onlyOurs: true },
      );
    }
    // none of the run's quotes carries an app fee
    cases.push({ rule: '§4.3: appFeesAmountUsdMin bounds the total app fees in USD', query: scoped({ appFeesAmountUsdMin: 1 }), expect: none, onlyOurs: true });
    const { page } = await listPage(http, { recipient: set.recipient, limit: 50 });
    const createdAt = page.requests.map((record) => (typeof record.createdAt === 'string' ? Date.parse(record.createdAt) : Number.NaN)).find(Number.isFinite) ?? set.requests[0]!.quotedAt;
    if (createdAt !== undefined) {
      // an hour either side: every quote of the run is made within seconds of the others
      const seconds = Math.floor(createdAt / 1000);
      cases.push(
        { rule: '§4.3: startTimestamp/endTimestamp (unix seconds) bound createdAt', query: scoped({ startTimestamp: seconds - 3600, endTimestamp: seconds + 3600 }), expect: all, onlyOurs: true },
        { rule: '§4.3: endTimestamp (unix seconds) excludes requests created after it', query: scoped({ endTimestamp: seconds - 3600 }), expect: none, onlyOurs: true },
        { rule: '§4.3: startTimestamp (unix seconds) excludes requests created before it', query: scoped({ startTimestamp: seconds + 3600 }), expect: none, onlyOurs: true },
      );
    }
    return cases;
  }),

  filterCheck('listing.filter-hashes', 'depositTxHash, fillTxHash, refundTxHash and term match only requests with that transaction', (set): FilterCase[] => {
    const scoped = (query: FilterCase['query']) => ({ recipient: set.recipient, ...query });
    return [
      { rule: '§4.3: depositTxHash matches only the request of that deposit', query: scoped({ depositTxHash: randomHash() }), expect: none, onlyOurs: true },
      { rule: '§4.3: fillTxHash matches only the request of that fill', query: scoped({ fillTxHash: randomHash() }), expect: none, onlyOurs: true },
      { rule: '§4.3: refundTxHash matches only the request of that refund', query: scoped({ refundTxHash: randomHash() }), expect: none, onlyOurs: true },
      { rule: '§4.3: term matches only requests it names (a hash no transaction has names none)', query: scoped({ term: randomHash() }), expect: none, onlyOurs: true },
    ];
  }),

  filterCheck('listing.filter-groups', 'filters: fields AND-ed within a group, groups OR-ed, not: negates, an array is OR within the field, AND-ed with the other parameters', (set): FilterCase[] => {
    const [r1, r2, r3] = set.requests as [QuotedRequest, QuotedRequest, QuotedRequest];
    const { a, b } = set.chains;
    const filters = (groups: unknown[]) => JSON.stringify(groups);
    if (set.requests.length < 3) throw new CheckSkipped('fewer than three quotes: the groups cannot be told apart');
    return [
      { rule: '§4.3: filters: the fields of a group are AND-ed', query: { filters: filters([{ recipient: set.recipient, originChainId: a.id }]) }, expect: (r) => r.originChainId === a.id, onlyOurs: true },
      { rule: '§4.3: filters: groups are OR-ed', query: { filters: filters([{ id: r1.requestId }, { id: r2.requestId }]) }, expect: (r) => r === r1 || r === r2, onlyOurs: true },
      { rule: '§4.3: filters: groups of different fields are OR-ed', query: { filters: filters([{ recipient: set.recipient, originChainId: b.id }, { id: r1.requestId }]) }, expect: (r) => r.originChainId === b.id || r === r1, onlyOurs: true },
      { rule: '§4.3: filters: an array value is OR within the field', query: { filters: filters([{ id: [r1.requestId, r3.requestId] }]) }, expect: (r) => r === r1 || r === r3, onlyOurs: true },
      { rule: '§4.3: filters: a key prefixed not: negates it', query: { filters: filters([{ recipient: set.recipient, 'not:originChainId': a.id }]) }, expect: (r) => r.originChainId !== a.id, onlyOurs: true },
      { rule: '§4.3: filters: not: with an array excludes every listed value', query: { filters: filters([{ recipient: set.recipient, 'not:id': [r1.requestId, r2.requestId] }]) }, expect: (r) => r !== r1 && r !== r2, onlyOurs: true },
      { rule: '§4.3: filters narrow the listing together with the other parameters', query: { recipient: set.recipient, filters: filters([{ originChainId: b.id }]) }, expect: (r) => r.originChainId === b.id, onlyOurs: true },
    ];
  }),
];
