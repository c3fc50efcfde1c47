import { Router } from 'express';
import { buildPriceResponse } from '../../domain/quote/priceResponse';
import { parseWithSchema } from '../../errors/parseWithSchema';
import { createQuote, type QuoteProviderDeps } from '../../quote/createQuote';
import { QuoteRequestSchema } from '../../quote/quoteRequestSchema';

/**
 * SPEC §4.7: `POST /price`, a quote without steps or calldata that stores nothing. It validates
 * like `/quote/v2`, §7.1 errors included (slippage: non-integer strings are a 400, never a 500).
 */
export function priceRoutes(deps: QuoteProviderDeps): Router {
  const router = Router();
  router.post('/price', async (req, res) => {
    const request = parseWithSchema(QuoteRequestSchema, req.body);
    const { response } = await createQuote(deps, request, { apiKey: null }, 'price');
    res.status(200).json(buildPriceResponse(response));
  });
  return router;
}
