import { FAIL_REASONS, REFUND_FAIL_REASONS, REQUEST_STATUSES } from '../../src/domain/request/requestStatus';
import { REQUEST_TYPES } from '../../src/domain/request/requestRecord';
import { chains, forgetApiKey, listRequests, rememberApiKey, resolveApiKey, type ChainInfo, type RequestView } from './api';
import { errorBox, formatTime, h, replaceChildren, shorten, statusBadge } from './dom';
import { navigate } from './router';
import { onStatusChange, startStatusStream, watchRequest } from './statusStream';

/** The filters the list offers, each a `GET /requests/v3` query parameter (SPEC §4.3) under the same name. */
const TEXT_FILTERS = ['term', 'id', 'user', 'recipient', 'depositTxHash', 'fillTxHash'] as const;
const SETTLED = new Set(['success', 'failure', 'refund']);
/** How often the list looks for requests the stream cannot announce (made without the page's key). */
const POLL_MS = 2000;

function select(name: string, options: readonly string[], value: string | null, anyLabel = 'any'): HTMLSelectElement {
  return h('select', { name, 'data-testid': `filter-${name}` }, h('option', { value: '' }, anyLabel), ...options.map((option) => h('option', { value: option, selected: option === value }, option)));
}

function filterForm(query: URLSearchParams, chainList: ChainInfo[], onChange: (query: URLSearchParams) => void): HTMLFormElement {
  const chainIds = chainList.map((chain) => String(chain.id));
  const form = h(
    'form',
    { class: 'filters', 'data-testid': 'filters' },
    ...TEXT_FILTERS.map((name) => h('label', {}, name, h('input', { name, value: query.get(name) ?? '', placeholder: name === 'term' ? 'id, wallet or tx hash' : '' }))),
    h('label', {}, 'status', select('status', REQUEST_STATUSES, query.get('status'))),
    h('label', {}, 'requestType', select('requestType', REQUEST_TYPES, query.get('requestType'))),
    h('label', {}, 'originChainId', select('originChainId', chainIds, query.get('originChainId'))),
    h('label', {}, 'destinationChainId', select('destinationChainId', chainIds, query.get('destinationChainId'))),
    h('label', {}, 'failReason', select('failReason', FAIL_REASONS, query.get('failReason'))),
    h('label', {}, 'refundFailReason', select('refundFailReason', REFUND_FAIL_REASONS, query.get('refundFailReason'))),
    h('label', {}, 'sortBy', select('sortBy', ['createdAt', 'updatedAt', 'amountUsd'], query.get('sortBy'), 'createdAt')),
    h('label', {}, 'sortDirection', select('sortDirection', ['desc', 'asc'], query.get('sortDirection'), 'default')),
    h('label', {}, 'limit', h('input', { name: 'limit', type: 'number', min: 1, max: 50, placeholder: '20', value: query.get('limit') ?? '' })),
    h('button', { type: 'submit' }, 'Apply'),
    h('button', { type: 'reset' }, 'Clear'),
  );
  const read = () => {
    const next = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (typeof value === 'string' && value.trim() !== '') next.set(name, value.trim());
    return next;
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    onChange(read());
  });
  form.addEventListener('change', () => onChange(read()));
  form.addEventListener('reset', () => setTimeout(() => onChange(new URLSearchParams()), 0));
  return form;
}

function chainName(chainList: ChainInfo[], chainId: number): string {
  return chainList.find((chain) => chain.id === chainId)?.displayName ?? String(chainId);
}

function requestRow(request: RequestView, chainList: ChainInfo[]): HTMLTableRowElement {
  const { currencyIn, currencyOut } = request.data.metadata;
  const href = `/explorer/requests/${request.id}`;
  const open = (event: Event) => {
    if ((event.target as Element).closest('a')) return;
    navigate(href);
  };
  return h(
    'tr',
    { 'data-testid': 'request-row', 'data-request-id': request.id, class: 'clickable', onclick: open },
    h('td', {}, h('a', { href, title: request.id, 'data-testid': 'request-link' }, shorten(request.id))),
    h('td', {}, request.requestType),
    h('td', {}, `${chainName(chainList, currencyIn.currency.chainId)} → ${chainName(chainList, currencyOut.currency.chainId)}`),
    h('td', { class: 'amount' }, `${currencyIn.amountFormatted} ${currencyIn.currency.symbol} → ${currencyOut.amountFormatted} ${currencyOut.currency.symbol}`),
    h('td', {}, statusBadge(request.status, 'request-status')),
    h('td', { 'data-testid': 'request-fail-reason' }, request.data.failReason ?? ''),
    h('td', { class: 'time' }, formatTime(Date.parse(request.createdAt))),
  );
}

function keyPrompt(onKey: () => void): HTMLElement {
  const input = h('input', { name: 'apiKey', placeholder: 'intentsim_…', size: 40 });
  return h(
    'form',
    {
      class: 'key-prompt',
      onsubmit: (event: Event) => {
        event.preventDefault();
        if (input.value.trim()) rememberApiKey(input.value.trim());
        onKey();
      },
    },
    h('p', {}, 'GET /requests/v3 needs an API key. The simulator prints its default key at start ("API key"); it is kept in this browser.'),
    input,
    h('button', { type: 'submit' }, 'Use key'),
  );
}

/** The request list: `GET /requests/v3` with the filters in the page's URL, kept current by the status stream. */
export async function renderRequestList(root: HTMLElement): Promise<() => void> {
  const apiKey = await resolveApiKey();
  if (!apiKey) {
    replaceChildren(root, keyPrompt(() => void renderRequestList(root)));
    return () => undefined;
  }
  startStatusStream(apiKey);
  const chainList = await chains();
  let query = new URLSearchParams(location.search);
  const pages: string[] = [];
  const body = h('tbody', { 'data-testid': 'request-rows' });
  const problem = h('div', {});
  const pager = h('div', { class: 'pager' });
  let refreshing: Promise<void> | undefined;
  let again = false;

  const refresh = async () => {
    if (refreshing) {
      again = true;
      return;
    }
    refreshing = (async () => {
      try {
        const page = await listRequests(withCursor(query, pages.at(-1)));
        replaceChildren(problem);
        replaceChildren(body, ...page.requests.map((request) => requestRow(request, chainList)));
        if (page.requests.length === 0) replaceChildren(body, h('tr', {}, h('td', { colspan: 7, class: 'empty' }, 'No requests match.')));
        for (const request of page.requests) if (!SETTLED.has(request.status)) watchRequest(request.id);
        replaceChildren(
          pager,
          pages.length > 0 ? h('button', { onclick: () => (pages.pop(), void refresh()) }, '← Newer') : null,
          page.continuation ? h('button', { 'data-testid': 'next-page', onclick: () => (pages.push(page.continuation!), void refresh()) }, 'Older →') : null,
        );
      } catch (error) {
        if (error instanceof Error && 'status' in error && error.status === 401) forgetApiKey();
        replaceChildren(problem, errorBox(error));
      }
    })();
    await refreshing;
    refreshing = undefined;
    if (again) {
      again = false;
      await refresh();
    }
  };

  const form = filterForm(query, chainList, (next) => {
    query = next;
    pages.length = 0;
    history.replaceState(null, '', next.size > 0 ? `/?${next.toString()}` : '/');
    void refresh();
  });
  replaceChildren(
    root,
    h('h1', {}, 'Requests'),
    form,
    problem,
    h(
      'table',
      { class: 'requests' },
      h('thead', {}, h('tr', {}, ...['id', 'type', 'chains', 'amounts', 'status', 'failReason', 'created'].map((title) => h('th', {}, title)))),
      body,
    ),
    pager,
  );
  await refresh();
  const stopListening = onStatusChange(() => void refresh());
  const timer = setInterval(() => void refresh(), POLL_MS);
  return () => {
    stopListening();
    clearInterval(timer);
  };
}

function withCursor(query: URLSearchParams, continuation: string | undefined): URLSearchParams {
  const next = new URLSearchParams(query);
  if (continuation) next.set('continuation', continuation);
  return next;
}
