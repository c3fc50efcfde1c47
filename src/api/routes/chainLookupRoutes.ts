import { Router } from 'express';
import { z } from 'zod';
import type { ChainAdapter } from '../../chains/ChainAdapter';
import { parseWithSchema } from '../../errors/parseWithSchema';
import { chainOrThrow } from '../../lookups/chainOrThrow';
import { listSwapSources } from '../../lookups/listSwapSources';
import { probeChainHealth } from '../../lookups/probeChainHealth';
import { readSolverLiquidity } from '../../lookups/readSolverLiquidity';
import { QueryChainIdSchema } from './lookupQuery';

export const RequiredChainQuerySchema = z.object({ chainId: QueryChainIdSchema });
export const OptionalChainQuerySchema = z.object({ chainId: QueryChainIdSchema.optional() });

/**
 * Chain look-ups of the service's published API, read from the running chains: `GET
 * /chains/liquidity` (the solver's balances), `GET /chains/health` (one chain, or all when none is
 * named) and `GET /swap-sources` (the pools' source).
 */
export function chainLookupRoutes(deps: { chains: ReadonlyMap<number, ChainAdapter> }): Router {
  const router = Router();
  const chainsNamed = (query: unknown) => {
    const { chainId } = parseWithSchema(OptionalChainQuerySchema, query, 'query');
    return chainId === undefined ? [...deps.chains.values()] : [chainOrThrow(deps.chains, chainId)];
  };

  router.get('/chains/liquidity', async (req, res) => {
    const { chainId } = parseWithSchema(RequiredChainQuerySchema, req.query, 'query');
    res.json({ liquidity: await readSolverLiquidity(chainOrThrow(deps.chains, chainId)) });
  });

  router.get('/chains/health', async (req, res) => {
    const probes = await Promise.all(chainsNamed(req.query).map((chain) => probeChainHealth(chain)));
    res.json({ healthy: probes.every(Boolean) });
  });

  router.get('/swap-sources', (req, res) => {
    res.json({ sources: listSwapSources(chainsNamed(req.query)) });
  });
  return router;
}
