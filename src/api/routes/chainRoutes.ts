import { Router } from 'express';
import type { ChainAdapter } from '../../chains/ChainAdapter';
import { buildChainView } from '../../domain/chain/chainView';

/** SPEC §4.4: `GET /chains`, no key required (the official SDK sends none to a local URL). */
export function chainRoutes(deps: { chains: ReadonlyMap<number, ChainAdapter> }): Router {
  const router = Router();
  router.get('/chains', (_req, res) => {
    res.json({ chains: [...deps.chains.values()].map((chain) => buildChainView(chain.describe())) });
  });
  return router;
}
