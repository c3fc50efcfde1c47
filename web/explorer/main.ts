import { resolveApiKey } from './api';
import { errorBox, replaceChildren } from './dom';
import { renderAddressPage, renderBlockPage, renderChainPage, renderTransactionPage } from './chainPages';
import { renderRequestList } from './requestList';
import { renderRequestTimeline } from './requestTimeline';
import { startRouter } from './router';
import { startStatusStream } from './statusStream';
import { renderTimelineFile } from './timelineFile';

type View = (root: HTMLElement, ...parts: string[]) => Promise<(() => void) | void>;

/** Path patterns → views; the chain pages follow `/chains`' `explorerUrl` (`/explorer/<chainId>`) and `explorerPaths`. */
const ROUTES: Array<[RegExp, View]> = [
  [/^\/$/, renderRequestList],
  [/^\/explorer\/?$/, renderRequestList],
  [/^\/explorer\/requests\/([^/]+)$/, renderRequestTimeline],
  [/^\/explorer\/timeline-file$/, renderTimelineFile],
  [/^\/explorer\/(\d+)\/(?:tx|transaction)\/([^/]+)$/, renderTransactionPage],
  [/^\/explorer\/(\d+)\/address\/([^/]+)$/, renderAddressPage],
  [/^\/explorer\/(\d+)\/block\/([^/]+)$/, renderBlockPage],
  [/^\/explorer\/(\d+)\/?$/, renderChainPage],
];

let cleanup: (() => void) | void;

async function draw(): Promise<void> {
  cleanup?.();
  cleanup = undefined;
  const root = document.getElementById('app')!;
  const path = location.pathname;
  const route = ROUTES.find(([pattern]) => pattern.test(path));
  if (!route) return replaceChildren(root, errorBox(`No explorer page at ${path}`));
  const parts = path.match(route[0])!.slice(1).map(decodeURIComponent);
  replaceChildren(root, 'Loading…');
  try {
    cleanup = await route[1](root, ...parts);
  } catch (error) {
    replaceChildren(root, errorBox(error));
  }
}

startRouter(() => void draw());
// the connection badge shows the stream on every page (views that need the key wait for it themselves)
void resolveApiKey().then(startStatusStream, () => startStatusStream(undefined));
