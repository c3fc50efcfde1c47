import { Router } from 'express';
import { createQuote, type QuoteProviderDeps } from '../quote/createQuote';
import { parseWithSchema } from '../parseBody';
import { QuoteRequestSchema } from '../schemas/quoteRequestSchema';

/** SPEC §4.1: `POST /quote/v2` answers exactly 200 with the quote (the official SDK requires 200). */
export function quoteRoutes(deps: QuoteProviderDeps): Router {
  const router = Router();
  router.post('/quote/v2', async (req, res) => {
    const request = parseWithSchema(QuoteRequestSchema, req.body);
    const { response } = await createQuote(deps, request);
    res.status(200).json(response);
  });
  return router;
}
