import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConformanceMode } from '../../conformance';

/** A request as the proxy saw it, before it goes on to the simulator. */
export interface ProxiedRequest {
  method: string;
  /** The path without the query, e.g. `/quote/v2`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when there is none or it is not JSON). */
  body: unknown;
}

/** A response as the simulator gave it. */
export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  /** The parsed JSON body (undefined when it is not JSON). */
  body: unknown;
  text: string;
}

/**
 * One way a deployment can deviate from the SPEC, put between the suite and the simulator by
 * the proxy. The suite must fail at least one check whose section starts with `section`.
 */
export interface Deviation {
  name: string;
  /** The SPEC section the failing check must name (`2.2`, `7.1`, `4.3`, …). */
  section: string;
  /** The checks to run against it (tags as in `--only`); default: `[section]`. */
  only?: readonly string[];
  /** Default `read-only`; `full` for deviations only a stateful run can see. */
  mode?: ConformanceMode;
  /** Rewrites the request before it goes on (e.g. add the API key the caller left out, change a query parameter). */
  request?: (request: ProxiedRequest) => Partial<Pick<ProxiedRequest, 'path' | 'query' | 'headers' | 'body'>> | undefined;
  /** Rewrites the answer: return a new status and/or body, or undefined to pass it through (may be async, e.g. to sign). */
  response?: (request: ProxiedRequest, response: ProxiedResponse) => ResponseChange | undefined | Promise<ResponseChange | undefined>;
  /**
   * Rewrites each webhook the target sends. Webhooks go from the target straight to the suite's
   * receiver, so with this hook the proxy puts itself in between: it registers its own relay URL
   * in place of the receiver's (`PUT /admin/api-keys/:apiKey/webhook`) and passes each delivery on
   * as changed here; `drop: true` answers the target 200 and passes nothing on.
   */
  webhook?: (delivery: RelayedWebhook) => { headers?: Record<string, string>; body?: string; drop?: boolean } | undefined;
}

export interface ResponseChange {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A webhook request from the target, on its way to the receiver the suite registered. */
export interface RelayedWebhook {
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

export interface DeviationProxy {
  baseUrl: string;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'host']);
/** The proxy's own path where the target's webhooks arrive when a deviation rewrites them. */
const WEBHOOK_RELAY_PATH = '/__deviation-webhook-relay';
const WEBHOOK_REGISTRATION = /^\/admin\/api-keys\/[^/]+\/webhook$/;

/** Passes one webhook on to the receiver named in the relay URL, as the deviation changed it. */
async function relayWebhook(deviation: Pick<Deviation, 'webhook'>, query: URLSearchParams, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  const changed = deviation.webhook?.({ headers, body }) ?? {};
  if (changed.drop) return { status: 200, text: 'dropped by the deviation' };
  const answer = await fetch(query.get('to')!, { method: 'POST', headers: changed.headers ?? headers, body: changed.body ?? body });
  return { status: answer.status, text: await answer.text() };
}

function parseJson(text: string): unknown {
  try {
    return text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** An HTTP proxy in front of `targetBaseUrl` that applies one deviation to what passes through. */
export async function startDeviationProxy(targetBaseUrl: string, deviation: Pick<Deviation, 'request' | 'response' | 'webhook'>): Promise<DeviationProxy> {
  let ownBaseUrl = '';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://proxy');
        const rawBody = Buffer.concat(chunks).toString('utf8');
        const seen: ProxiedRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: parseJson(rawBody) };
        const changed = deviation.request?.(seen) ?? {};
        const path = changed.path ?? seen.path;
        const headers = Object.fromEntries(Object.entries(changed.headers ?? seen.headers).filter(([name, value]) => !HOP_BY_HOP.has(name) && typeof value === 'string')) as Record<string, string>;
        if (deviation.webhook && path === WEBHOOK_RELAY_PATH) {
          const relayed = await relayWebhook(deviation, url.searchParams, headers, rawBody);
          res.writeHead(relayed.status, { 'content-type': 'text/plain' });
          res.end(relayed.text);
          return;
        }
        let bodyValue = changed.body ?? seen.body;
        if (deviation.webhook && seen.method === 'PUT' && WEBHOOK_REGISTRATION.test(path) && typeof (bodyValue as { url?: unknown } | undefined)?.url === 'string') {
          const receiverUrl = (bodyValue as { url: string }).url;
          bodyValue = { ...(bodyValue as object), url: `${ownBaseUrl}${WEBHOOK_RELAY_PATH}?to=${encodeURIComponent(receiverUrl)}` };
        }
        const body = bodyValue !== seen.body ? JSON.stringify(bodyValue) : rawBody;
        const search = changed.query ? (changed.query.size > 0 ? `?${changed.query.toString()}` : '') : url.search;
        const upstream = await fetch(`${targetBaseUrl.replace(/\/$/, '')}${path}${search}`, {
          method: seen.method,
          headers,
          ...(seen.method === 'GET' || seen.method === 'HEAD' || body.length === 0 ? {} : { body }),
        });
        const text = await upstream.text();
        const responseHeaders = Object.fromEntries([...upstream.headers.entries()].filter(([name]) => !HOP_BY_HOP.has(name)));
        const answer: ProxiedResponse = { status: upstream.status, headers: responseHeaders, body: parseJson(text), text };
        const altered = await deviation.response?.({ ...seen, path }, answer);
        const outText = altered?.body !== undefined ? JSON.stringify(altered.body) : text;
        res.writeHead(altered?.status ?? answer.status, { ...responseHeaders, ...(altered?.headers ?? {}) });
        res.end(outText);
      })().catch((error: unknown) => {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ errorCode: 'PROXY_ERROR', message: String(error) }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  ownBaseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl: ownBaseUrl,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
