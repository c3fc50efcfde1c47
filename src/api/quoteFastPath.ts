import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimulatorError } from '../errors/SimulatorError';
import { MalformedJsonError } from '../errors/requestErrors';
import type { FailedRequest } from './errorMiddleware';
import { JSON_BODY_LIMIT_BYTES } from './errorMiddleware';
import type { QuoteAdmission } from './quoteAdmission';

/** The quote routes' paths, exactly: no query string, no trailing slash, lower case. */
const QUOTE_PATHS = new Set(['/quote/v2', '/quote']);
/** The Content-Types express.json reads as they are (any other, with a charset or parameters, goes to express). */
const PLAIN_JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);
const DECIMAL_LENGTH = /^[1-9][0-9]{0,15}$/;
/** express.json's strict mode: the first character that is not JSON whitespace must open an object or an array. */
const FIRST_NON_WHITESPACE = /^[\x20\x09\x0a\x0d]*([^\x20\x09\x0a\x0d]|$)/;

export interface QuoteFastPathDeps {
  /** The quote routes' answer for a parsed body (`answerQuoteBody`). */
  answer: (body: unknown, headers: IncomingMessage['headers']) => Promise<unknown>;
  /** The one admission queue of every quote (`admitQuotesInOrder`), shared with express's quote and price routes. */
  admit: QuoteAdmission;
  /** The quote RPC scope (`QuoteRpcScope.run`): the quote's chain reads get the quote timeout and faults. */
  inRpcScope: (work: () => void) => void;
  /** The app's error mapping (`createErrorMapper`), shared with express's error middleware. */
  mapError: (error: unknown, req: FailedRequest) => SimulatorError;
}

/**
 * A plain `POST /quote/v2` (or `/quote`), answered before express like the status look-up
 * (`statusFastPath.ts`): a JSON body of a stated length within the limit is read, parsed as
 * express.json parses it (strict, a BOM dropped, an empty body as `{}`), admitted in the one
 * quote queue, and answered in the quote RPC scope with the bytes and headers `res.json` would
 * send, errors mapped as express's error middleware maps them (a body that is not JSON: 400
 * INVALID_JSON). It answers true when it took the request. Every other shape — another path, a
 * query string, a chunked or compressed body, a Content-Type with other parameters, no body, a
 * body over the limit (413 there) — it leaves to express (false), before reading anything.
 */
export function answerPlainQuote(deps: QuoteFastPathDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const send = (res: ServerResponse, status: number, json: string) => {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
    res.end(json);
  };
  const fail = (req: IncomingMessage, res: ServerResponse, error: unknown) => {
    const mapped = deps.mapError(error, { method: req.method, originalUrl: req.url, path: req.url, headers: req.headers });
    send(res, mapped.httpStatus, JSON.stringify(mapped.toResponseBody()));
  };
  const answer = (req: IncomingMessage, res: ServerResponse, text: string) => {
    let body: unknown;
    try {
      body = parseStrictJson(text);
    } catch {
      return fail(req, res, new MalformedJsonError());
    }
    deps.admit(req, res, () =>
      deps.inRpcScope(() => {
        deps.answer(body, req.headers).then(
          (response) => send(res, 200, JSON.stringify(response)),
          (error: unknown) => fail(req, res, error),
        );
      }),
    );
  };
  return (req, res) => {
    if (req.method !== 'POST' || !QUOTE_PATHS.has(req.url ?? '')) return false;
    const { headers } = req;
    if (headers['transfer-encoding'] !== undefined || headers['content-encoding'] !== undefined) return false;
    const type = headers['content-type'];
    if (type === undefined || !PLAIN_JSON_TYPES.has(type.toLowerCase())) return false;
    const length = headers['content-length'];
    if (length === undefined || !DECIMAL_LENGTH.test(length) || Number(length) > JSON_BODY_LIMIT_BYTES) return false;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    // a body cut short (the client hung up) is answered to no one, as express's reader gives up on it
    req.on('end', () => {
      if (req.complete) answer(req, res, Buffer.concat(chunks).toString('utf8'));
    });
    return true;
  };
}

/** express.json's parse (body-parser, strict): a leading BOM dropped (iconv-lite), `{}` for nothing, else an object or array. */
function parseStrictJson(raw: string): unknown {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  if (text.length === 0) return {};
  if (text[0] !== '{' && text[0] !== '[') {
    const first = FIRST_NON_WHITESPACE.exec(text)?.[1];
    if (first !== '{' && first !== '[') throw new SyntaxError('not a JSON object or array');
  }
  return JSON.parse(text) as unknown;
}
