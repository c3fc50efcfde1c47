import { Router } from 'express';
import { z } from 'zod';
import type { ChainAdapter } from '../../chains/ChainAdapter';
import { InvalidRequestBodyError } from '../../errors/requestErrors';
import { parseWithSchema } from '../../errors/parseWithSchema';
import { chainOrThrow } from '../../lookups/chainOrThrow';
import { currencyWithGroupId, readBridgeConfig } from '../../lookups/readBridgeConfig';
import { currencyGroupId } from '../../domain/chain/currencySearch';
import { QueryChainIdSchema, QueryTextSchema } from './lookupQuery';

export const ConfigQuerySchema = z.object({
  originChainId: QueryChainIdSchema,
  destinationChainId: QueryChainIdSchema,
  user: QueryTextSchema.optional(),
  currency: QueryTextSchema.optional(),
});

/**
 * `GET /config` (currency by address, default the origin's native) and `GET /config/v2` (currency by
 * id, default the destination's native; adds `fee`): what the solver can bridge between two chains
 * and, with `user`, what that user can, read from the chains now.
 */
export function configRoutes(deps: { chains: ReadonlyMap<number, ChainAdapter> }): Router {
  const router = Router();
  const parse = (query: unknown) => {
    const parsed = parseWithSchema(ConfigQuerySchema, query, 'query');
    const origin = chainOrThrow(deps.chains, parsed.originChainId);
    const destination = chainOrThrow(deps.chains, parsed.destinationChainId);
    if (parsed.user !== undefined && !origin.isValidAddress(parsed.user)) {
      throw new InvalidRequestBodyError(`Invalid request: query user: not an address on chain ${origin.chainId}`);
    }
    return { parsed, origin, destination };
  };

  router.get('/config', async (req, res) => {
    const { parsed, origin, destination } = parse(req.query);
    const originCurrency = parsed.currency === undefined ? origin.nativeCurrency() : origin.findCurrency(parsed.currency);
    const destinationCurrency = originCurrency ? currencyWithGroupId(destination, currencyGroupId(originCurrency)) : undefined;
    const { fee: _v2Only, ...config } = await readBridgeConfig({ origin, destination, originCurrency, destinationCurrency, ...(parsed.user ? { user: parsed.user } : {}) });
    res.json(config);
  });

  router.get('/config/v2', async (req, res) => {
    const { parsed, origin, destination } = parse(req.query);
    const id = parsed.currency ?? currencyGroupId(destination.nativeCurrency());
    const config = await readBridgeConfig({
      origin,
      destination,
      originCurrency: currencyWithGroupId(origin, id),
      destinationCurrency: currencyWithGroupId(destination, id),
      ...(parsed.user ? { user: parsed.user } : {}),
    });
    res.json(config);
  });
  return router;
}
