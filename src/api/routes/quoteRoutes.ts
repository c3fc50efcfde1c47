import { Router } from 'express';
import type { ApiKeyStore } from '../../store/ApiKeyStore';
import { createQuote, type QuoteProviderDeps } from '../../quote/createQuote';
import { parseWithSchema } from '../../errors/parseWithSchema';
import { optionalApiKey } from '../requestApiKey';
import { QuoteRequestSchema } from '../../quote/quoteRequestSchema';

/**
 * SPEC §4.1: `POST /quote/v2` answers exactly 200 with the quote (the official SDK requires 200).
 * The older `POST /quote` (§4.7, §9) answers the same: the service's published API types give it
 * the same body and response as `/quote/v2`.
 */
export function quoteRoutes(deps: QuoteProviderDeps, apiKeys: ApiKeyStore): Router {
  const router = Router();
  router.post(['/quote/v2', '/quote'], async (req, res) => {
    const request = parseWithSchema(QuoteRequestSchema, req.body);
    const { response } = await createQuote(deps, request, { apiKey: optionalApiKey(req, apiKeys)?.key ?? null });
    res.status(200).json(response);
  });
  return router;
}
