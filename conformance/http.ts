/** One request and its answer, as the target gave it. */
export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  responseHeaders: Record<string, string>;
  responseText: string;
  /** The parsed JSON body, or `undefined` when the body is not JSON. */
  json: unknown;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | readonly (string | number)[] | undefined>;
  body?: unknown;
  /** A raw body sent as is (malformed JSON, a huge body). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Send the run's API key in `x-api-key` (`false`: never, even when the run has one). */
  withApiKey?: boolean;
  timeoutMs?: number;
}

/** The longest excerpt of a response kept in a failure report. */
const EXCERPT_CHARS = 600;

/**
 * The suite's only way to the target: plain HTTP (fetch), each exchange kept so a failure can
 * show the request and an excerpt of the response.
 */
export class ConformanceHttp {
  readonly exchanges: Exchange[] = [];

  constructor(
    readonly baseUrl: string,
    readonly apiKey: string | undefined,
    private readonly defaultTimeoutMs = 30_000,
  ) {}

  urlOf(path: string, query: RequestOptions['query'] = {}): string {
    const url = new URL(path.replace(/^\//, ''), this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
      else url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  get(path: string, options: RequestOptions = {}): Promise<Exchange> {
    return this.request('GET', path, options);
  }

  post(path: string, body: unknown, options: RequestOptions = {}): Promise<Exchange> {
    return this.request('POST', path, { ...options, body });
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Exchange> {
    const url = this.urlOf(path, options.query);
    const requestHeaders: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.withApiKey && this.apiKey) requestHeaders['x-api-key'] = this.apiKey;
    let requestBody: string | undefined;
    if (options.rawBody !== undefined) requestBody = options.rawBody;
    else if (options.body !== undefined) requestBody = JSON.stringify(options.body);
    if (requestBody !== undefined && !Object.keys(requestHeaders).some((name) => name.toLowerCase() === 'content-type')) requestHeaders['content-type'] = 'application/json';
    const response = await fetch(url, {
      method,
      headers: requestHeaders,
      ...(requestBody !== undefined ? { body: requestBody } : {}),
      signal: AbortSignal.timeout(options.timeoutMs ?? this.defaultTimeoutMs),
    });
    const responseText = await response.text();
    let json: unknown;
    try {
      json = responseText.length > 0 ? JSON.parse(responseText) : undefined;
    } catch {
      json = undefined;
    }
    const exchange: Exchange = {
      method,
      url,
      requestHeaders,
      ...(requestBody !== undefined ? { requestBody } : {}),
      status: response.status,
      responseHeaders: Object.fromEntries(response.headers.entries()),
      responseText,
      json,
    };
    this.exchanges.push(exchange);
    return exchange;
  }
}

/** `METHOD url` and the body, short enough for a report. */
export function describeRequest(exchange: Exchange): string {
  const body = exchange.requestBody === undefined ? '' : `\n${excerpt(exchange.requestBody)}`;
  return `${exchange.method} ${exchange.url}${body}`;
}

/** The status and the start of the body. */
export function describeResponse(exchange: Exchange): string {
  return `HTTP ${exchange.status}\n${excerpt(exchange.responseText)}`;
}

export function excerpt(text: string): string {
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}… (${text.length} chars)` : text;
}
