import { Router } from 'express';
import type { ChainAdapter } from '../../chains/ChainAdapter';
import { explorerLinksFor } from '../../domain/chain/explorerLinks';
import { buildChainView } from '../../domain/chain/chainView';
import { publicBaseUrl } from '../explorer/publicBaseUrl';

/**
 * SPEC §4.4: `GET /chains`, no key required (the official SDK sends none to a local URL).
 * `explorerUrl` points at the simulator's own explorer pages, on the URL the client used.
 */
export function chainRoutes(deps: { chains: ReadonlyMap<number, ChainAdapter> }): Router {
  const router = Router();
  router.get('/chains', (req, res) => {
    const baseUrl = publicBaseUrl(req);
    res.json({ chains: [...deps.chains.values()].map((chain) => buildChainView(chain.describe(), explorerLinksFor({ id: chain.chainId, vmType: chain.vmType }, baseUrl))) });
  });
  return router;
}
