import { CheckSkipped, type ConformanceCheck } from '../check';
import { expectShape, expectThat } from '../expectations';
import { getListing, listPage, requireApiKey } from '../listRequests';
import { sameId, shortId } from '../requestIds';
import { requireListedQuotes } from '../requireListedQuotes';
import { quotedRequestsOf } from '../quotedRequests';
import { listingPageSchema, requestRecordSchema } from '../schemas/requestRecordSchema';
import { chainsResponseSchema } from '../schemas/chainSchema';

/** A bare transaction hash (SPEC §4.3): 64 hex characters, no `0x`. */
const BARE_HASH = /^[0-9a-fA-F]{64}$/;

/** §2.3: the records `GET /requests/v3` returns. */
export const listingRecordChecks: readonly ConformanceCheck[] = [
  {
    id: 'listing.bare-origin-hash',
    section: '4.3',
    title: 'a request from the chain whose explorer path is /transaction/{TX_HASH} lists its inTxs hashes bare (64 hex, no 0x)',
    mode: 'read-only',
    async run({ http }) {
      requireApiKey(http);
      const chainsExchange = await http.get('/chains');
      const { chains } = expectShape(chainsExchange, chainsResponseSchema, '§2.1: each chain has every field of the table');
      const bareChains = chains.filter((chain) => chain.explorerPaths?.transaction.endsWith('/transaction/{TX_HASH}')).map((chain) => chain.id);
      if (bareChains.length === 0) throw new CheckSkipped('no chain in GET /chains has the explorer path /transaction/{TX_HASH}');
      let judged = 0;
      for (const chainId of bareChains) {
        const exchange = await getListing(http, { originChainId: chainId, limit: 50 });
        const { requests } = expectShape(exchange, listingPageSchema, '§4.3: GET /requests/v3 answers an object with a requests array');
        for (const listed of requests) {
          const record = expectShape({ ...exchange, json: listed }, requestRecordSchema, '§2.3: a request record has every field of the tables');
          for (const entry of record.data.inTxs) {
            if (entry.chainId !== chainId) continue;
            const hash = entry.txHash;
            judged += 1;
            expectThat(BARE_HASH.test(hash), `§4.3: for a request from chain ${chainId} (explorer path /transaction/{TX_HASH}), data.inTxs[].txHash is the bare 64-character hex hash`, `request ${shortId(record.id)} lists ${JSON.stringify(hash)}`, exchange);
          }
        }
      }
      if (judged === 0) throw new CheckSkipped(`no request with a deposit on chain ${bareChains.join(', ')} is listed: nothing to judge`);
    },
  },
  {
    id: 'listing.record-fields',
    section: '2.3',
    title: 'every record listed has every §2.3 field the tables type with null (null when it has no value), and no null in a field they type without null',
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
          expectShape({ ...exchange, json: record }, requestRecordSchema, `§2.3: a request record has every nullable field of the tables, and null only where they say null (record ${index} of the page, ${shortId(record.id)})`);
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
