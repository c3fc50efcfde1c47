import { Router } from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import type { ApiKeyStore } from '../../store/ApiKeyStore';
import { createQuote, type QuoteProviderDeps } from '../../quote/createQuote';
import { parseWithSchema } from '../../errors/parseWithSchema';
import { optionalApiKey } from '../requestApiKey';
import { QuoteRequestSchema } from '../../quote/quoteRequestSchema';
import type { QuoteResponse } from '../../domain/quote/quoteResponse';

/**
 * A quote route's answer for a parsed JSON body (express's `req.body`: undefined when none was
 * sent): the body checked, the quote made and stored, attributed to a known `x-api-key`. The
 * express route and the quote fast path (`quoteFastPath.ts`) both answer with it.
 */
export async function answerQuoteBody(deps: QuoteProviderDeps, apiKeys: ApiKeyStore, body: unknown, headers: IncomingHttpHeaders): Promise<QuoteResponse> {
  const request = parseWithSchema(QuoteRequestSchema, body);
  const { response } = await createQuote(deps, request, { apiKey: optionalApiKey({ headers }, apiKeys)?.key ?? null });
  return response;
}

/**
 * SPEC §4.1: `POST /quote/v2` answers exactly 200 with the quote (the official SDK requires 200).
 * The older `POST /quote` (§4.7, §9) answers the same: the service's published API types give it
 * the same body and response as `/quote/v2`.
 */
export function quoteRoutes(deps: QuoteProviderDeps, apiKeys: ApiKeyStore): Router {
  const router = Router();
  router.post(['/quote/v2', '/quote'], async (req, res) => {
    res.status(200).json(await answerQuoteBody(deps, apiKeys, req.body, req.headers));
  });
  return router;
}
