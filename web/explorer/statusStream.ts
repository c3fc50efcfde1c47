/**
 * The simulator's websocket status stream (`/ws`, docs/webhooks.md ("Websocket status stream")): one
 * connection for the page, subscribed to every request of the API key and to any request a view
 * asks about by id (requests quoted without the key). Reconnects when the simulator comes back.
 */
export interface StatusEvent {
  requestId: string;
  status: string;
}

type Listener = (event: StatusEvent) => void;

const listeners = new Set<Listener>();
const watchedIds = new Set<string>();
let socket: WebSocket | undefined;
let streamKey: string | undefined;
let retryMs = 500;

function indicator(state: 'live' | 'offline'): void {
  const element = document.getElementById('connection');
  if (!element) return;
  element.textContent = state;
  element.className = `connection connection-${state}`;
}

function send(message: unknown): void {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function subscribeMessage(id?: string) {
  return { type: 'subscribe', event: 'request.status.updated', ...(id ? { filters: { id } } : {}) };
}

function connect(): void {
  const url = new URL('/ws', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  if (streamKey) url.searchParams.set('apiKey', streamKey);
  const opened = new WebSocket(url);
  socket = opened;
  opened.addEventListener('open', () => {
    retryMs = 500;
    indicator('live');
    if (streamKey) send(subscribeMessage());
    for (const id of watchedIds) send(subscribeMessage(id));
  });
  opened.addEventListener('message', (message) => {
    const parsed = JSON.parse(String(message.data)) as { event?: string; data?: { requestId?: string; status?: string } };
    if (parsed.event !== 'request.status.updated' || !parsed.data?.requestId || !parsed.data.status) return;
    const event = { requestId: parsed.data.requestId, status: parsed.data.status };
    for (const listener of listeners) listener(event);
  });
  opened.addEventListener('close', () => {
    indicator('offline');
    if (socket !== opened) return;
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 10_000);
  });
}

/** Starts the stream once per page (with the key, when there is one). */
export function startStatusStream(apiKey: string | undefined): void {
  if (socket) return;
  streamKey = apiKey;
  connect();
}

/** Hears every status change the stream brings; returns the way to stop. */
export function onStatusChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Asks for the changes of one request (kept across reconnects; the server holds up to its per-connection limit). */
export function watchRequest(requestId: string): void {
  const id = requestId.toLowerCase();
  if (watchedIds.has(id) || watchedIds.size >= 90) return;
  watchedIds.add(id);
  send(subscribeMessage(id));
}
