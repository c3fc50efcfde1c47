import { formatUnits } from 'viem';
import { chainById, chains, explorerLink, getJson, requestDetails, resolveApiKey, type ChainInfo, type RequestDetails, type RequestView } from './api';
import { errorBox, facts, formatTime, h, replaceChildren, shorten, statusBadge } from './dom';
import { onStatusChange, startStatusStream, watchRequest } from './statusStream';
import { timelineKeys } from '../../src/domain/request/requestTimelineOrder';

type TxEntry = RequestView['data']['inTxs'][number];

/** One line of a timeline: shown at its time, listed in the order it is given. */
export interface TimelineItem {
  /** A request's items: its name in the simulator's order of the timeline (`timelineKeys`). */
  key?: string;
  at: number;
  kind: 'status' | 'transaction' | 'reorg' | 'webhook' | 'quote' | 'note';
  content: Array<Node | string>;
}

export function timelineList(items: TimelineItem[], formatAt: (at: number) => string = formatTime): HTMLOListElement {
  return h(
    'ol',
    { class: 'timeline', 'data-testid': 'timeline' },
    ...items.map((item) => h('li', { class: `entry entry-${item.kind}`, 'data-testid': `timeline-${item.kind}` }, h('span', { class: 'at' }, formatAt(item.at)), h('span', { class: 'what' }, ...item.content))),
  );
}

function txLink(chainList: ChainInfo[], tx: Pick<TxEntry, 'chainId' | 'txHash'>, testId: string): Node {
  const chain = chainList.find((candidate) => candidate.id === tx.chainId);
  if (!chain) return h('code', {}, tx.txHash);
  return h('a', { href: explorerLink(chain, 'transaction', tx.txHash), 'data-testid': testId, title: tx.txHash }, h('code', {}, shorten(tx.txHash, 10)));
}

function blockLink(chainList: ChainInfo[], chainId: number, block: number): Node | string {
  const chain = chainList.find((candidate) => candidate.id === chainId);
  return chain ? h('a', { href: explorerLink(chain, 'block', String(block)) }, `block ${block}`) : `block ${block}`;
}

/**
 * When the request learnt of a transaction: the first status change whose event reported its hash
 * (a chain's block time runs on the chain's own clock); the block time when no event named it.
 */
function learntAt(details: RequestDetails, tx: TxEntry): number {
  const hash = tx.txHash.toLowerCase();
  const change = details.statusChanges.find((candidate) => [...candidate.inTxHashes, ...candidate.txHashes].some((known) => known.toLowerCase() === hash));
  return change?.at ?? tx.timestamp * 1000;
}

/** The entry's amount in its currency when it is the request's currency in or out; else in the smallest unit. */
function amountOf(request: RequestView, tx: TxEntry): string {
  const { currencyIn, currencyOut } = request.data.metadata;
  const known = [currencyIn.currency, currencyOut.currency].find((currency) => currency.chainId === tx.chainId && currency.address.toLowerCase() === tx.data.currency.toLowerCase());
  return known ? `${formatUnits(BigInt(tx.data.amount), known.decimals)} ${known.symbol}` : `${tx.data.amount} of ${shorten(tx.data.currency)}`;
}

function transactionItems(chainList: ChainInfo[], request: RequestView, details: RequestDetails, side: 'in' | 'out', tx: TxEntry, index: number): TimelineItem[] {
  const chain = chainList.find((candidate) => candidate.id === tx.chainId);
  const items: TimelineItem[] = [
    {
      key: timelineKeys.transaction(side, index),
      at: learntAt(details, tx),
      kind: 'transaction',
      content: [
        h('strong', {}, `${tx.type} `),
        txLink(chainList, tx, `tx-link-${tx.type}`),
        ` on ${chain?.displayName ?? tx.chainId}, `,
        blockLink(chainList, tx.chainId, tx.block),
        ` (block time ${formatTime(tx.timestamp * 1000)}), `,
        statusBadge(tx.status),
        ` ${side === 'in' ? 'inTxs' : 'outTxs'}: ${amountOf(request, tx)}`,
      ],
    },
  ];
  const reorg = 'metadata' in tx ? tx.metadata?.reorg : undefined;
  if (reorg) {
    items.push({
      key: timelineKeys.reorg(side, index),
      at: reorg.detectedAt,
      kind: 'reorg',
      content: [h('strong', {}, 'reorg: '), `${reorg.reason} (source ${reorg.source}${reorg.blockNumber === undefined ? '' : `, block ${reorg.blockNumber}`}${reorg.action ? `, action ${reorg.action}` : ''}${reorg.failReason ? `, failReason ${reorg.failReason}` : ''}) for `, txLink(chainList, tx, 'reorg-tx-link')],
    });
  }
  return items;
}

function webhookItems(details: RequestDetails): TimelineItem[] {
  return details.webhookDeliveries.flatMap((delivery) => [
    ...delivery.attempts.map(
      (attempt): TimelineItem => ({
        key: timelineKeys.webhookAttempt(delivery.id, attempt.attempt),
        at: attempt.at,
        kind: 'webhook',
        content: [h('strong', {}, 'webhook '), `${delivery.status} → ${delivery.url}, attempt ${attempt.attempt}: `, attempt.statusCode === null ? `no answer (${attempt.error ?? 'error'})` : `HTTP ${attempt.statusCode}`],
      }),
    ),
    ...(delivery.state === 'pending' && delivery.nextAttemptAt !== null
      ? [{ key: timelineKeys.webhookDue(delivery.id), at: delivery.nextAttemptAt, kind: 'webhook' as const, content: [h('strong', {}, 'webhook '), `${delivery.status}: next attempt due`] }]
      : []),
  ]);
}

/**
 * Every item of a request's timeline (quote, status changes, transactions and reorg markers,
 * webhook attempts) in the order the simulator gives (`details.timeline`: as things happened,
 * whichever clock each time comes from); an item it does not name goes last.
 */
export function requestTimelineItems(chainList: ChainInfo[], request: RequestView, details: RequestDetails): TimelineItem[] {
  const position = new Map(details.timeline.map((key, index) => [key, index]));
  const rank = (item: TimelineItem) => position.get(item.key ?? '') ?? position.size;
  return [
    { key: timelineKeys.quote, at: details.quote.quotedAt, kind: 'quote' as const, content: [h('strong', {}, 'quoted '), `${details.quote.requestType} (see the quote below)`] },
    ...details.statusChanges.map((change): TimelineItem => ({ key: timelineKeys.status(change.seq), at: change.at, kind: 'status', content: [h('strong', {}, 'status '), change.from ? statusBadge(change.from) : '(new)', ' → ', statusBadge(change.to)] })),
    ...request.data.inTxs.flatMap((tx, index) => transactionItems(chainList, request, details, 'in', tx, index)),
    ...request.data.outTxs.flatMap((tx, index) => transactionItems(chainList, request, details, 'out', tx, index)),
    ...webhookItems(details),
  ]
    .map((item, index) => ({ item, index }))
    .sort((a, b) => rank(a.item) - rank(b.item) || a.index - b.index)
    .map(({ item }) => item);
}

function json(value: unknown): HTMLElement {
  return h('pre', { class: 'json' }, JSON.stringify(value, null, 2));
}

async function draw(root: HTMLElement, requestId: string): Promise<void> {
  const [listing, details, chainList] = await Promise.all([getJson<{ requests: RequestView[] }>(`/requests/v3?id=${encodeURIComponent(requestId)}`), requestDetails(requestId), chains()]);
  const request = listing.requests[0];
  if (!request) throw new Error(`No request ${requestId}`);
  const { currencyIn, currencyOut } = request.data.metadata;
  const origin = await chainById(currencyIn.currency.chainId);
  const destination = await chainById(currencyOut.currency.chainId);
  replaceChildren(
    root,
    h('h1', {}, 'Request ', h('code', { 'data-testid': 'request-id' }, request.id)),
    facts([
      ['status', statusBadge(request.status, 'request-detail-status')],
      ['failReason', h('span', { 'data-testid': 'timeline-fail-reason' }, request.data.failReason ?? 'null')],
      ['refundFailReason', request.data.refundFailReason ?? 'null'],
      ['type', request.requestType],
      ['from', `${currencyIn.amountFormatted} ${currencyIn.currency.symbol} on ${origin?.displayName ?? currencyIn.currency.chainId}`],
      ['to', `${currencyOut.amountFormatted} ${currencyOut.currency.symbol} on ${destination?.displayName ?? currencyOut.currency.chainId}`],
      ['user', request.user],
      ['recipient', request.recipient],
      ['created / updated', `${formatTime(Date.parse(request.createdAt))} / ${formatTime(Date.parse(request.updatedAt))}`],
    ]),
    h('h2', {}, 'Timeline'),
    timelineList(requestTimelineItems(chainList, request, details)),
    h('h2', {}, 'Quote'),
    h('div', { 'data-testid': 'quote' }, json(details.quote)),
    h('h2', {}, 'Record (GET /requests/v3)'),
    json(request),
  );
}

/** A request's timeline; redrawn when the stream reports a change of it. */
export async function renderRequestTimeline(root: HTMLElement, requestId: string): Promise<() => void> {
  const apiKey = await resolveApiKey();
  startStatusStream(apiKey);
  watchRequest(requestId);
  const redraw = () => draw(root, requestId).catch((error: unknown) => replaceChildren(root, errorBox(error)));
  await redraw();
  return onStatusChange((event) => {
    if (event.requestId.toLowerCase() === requestId.toLowerCase()) void redraw();
  });
}
