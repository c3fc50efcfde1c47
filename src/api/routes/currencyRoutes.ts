import { Router } from 'express';
import { z } from 'zod';
import type { ChainAdapter } from '../../chains/ChainAdapter';
import {
  CurrencySearchSchema,
  DEFAULT_CURRENCY_LIMIT,
  currencyEntryView,
  groupCurrencies,
  groupedCurrencyEntryView,
  searchCurrencies,
} from '../../domain/chain/currencySearch';
import { formatUsd } from '../../domain/money/usdValue';
import { parseWithSchema } from '../../errors/parseWithSchema';
import { chainOrThrow } from '../../lookups/chainOrThrow';
import { listChainCurrencies } from '../../lookups/listChainCurrencies';
import { readTokenPriceUsd } from '../../lookups/readTokenPriceUsd';
import { QueryChainIdSchema, QueryTextSchema } from './lookupQuery';

export const TokenPriceQuerySchema = z.object({ address: QueryTextSchema, chainId: QueryChainIdSchema });

/**
 * The currency look-ups of the service's published API: `POST /currencies/v1` (groups across
 * chains) and `/currencies/v2` (flat), from the tokens deployed on the running chains; `GET
 * /currencies/token/price` (a number) and `/v2` (a decimal string), from the pools and price fixture.
 */
export function currencyRoutes(deps: { chains: ReadonlyMap<number, ChainAdapter> }): Router {
  const router = Router();
  const search = (body: unknown) => {
    const query = parseWithSchema(CurrencySearchSchema, body);
    return { found: searchCurrencies(listChainCurrencies(deps.chains), query), limit: query.limit ?? DEFAULT_CURRENCY_LIMIT };
  };

  router.post('/currencies/v1', (req, res) => {
    const { found, limit } = search(req.body);
    res.json(groupCurrencies(found).slice(0, limit).map((group) => group.map(groupedCurrencyEntryView)));
  });

  router.post('/currencies/v2', (req, res) => {
    const { found, limit } = search(req.body);
    res.json(found.slice(0, limit).map(currencyEntryView));
  });

  const price = async (query: unknown) => {
    const { address, chainId } = parseWithSchema(TokenPriceQuerySchema, query, 'query');
    return readTokenPriceUsd(chainOrThrow(deps.chains, chainId), address);
  };

  router.get('/currencies/token/price', async (req, res) => {
    res.json({ price: Number(formatUsd((await price(req.query)).priceUsdMicros)) });
  });

  router.get('/currencies/token/price/v2', async (req, res) => {
    res.json({ price: formatUsd((await price(req.query)).priceUsdMicros) });
  });
  return router;
}
